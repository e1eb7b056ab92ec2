package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 28: the NodeManager stops aux services in hash order, so the sponge service forgot a
 * stopped application's secret before the relay deleted its file; a handshake in that window looked
 * the file up again and cached the secret until the NodeManager restarted.
 */
class StoppedApplicationSecretTest {
  private static final String APP = "application_1_0001";
  private Path localDir;

  @BeforeEach
  void setUp() throws IOException {
    localDir = Files.createTempDirectory("nm-local");
  }

  @AfterEach
  void tearDown() {
    TempDirs.deleteRecursively(localDir);
  }

  @Test
  void aStoppedApplicationsSecretIsNotLookedUpAgainWhileItsFileLingers() throws IOException {
    JobSecretDrop drop = new JobSecretDrop(List.of(localDir));
    drop.put(APP, "job-secret".getBytes());
    ApplicationSecrets secrets =
        new ApplicationSecrets("a cluster secret of 32 bytes....".getBytes());
    secrets.lookUpIn(drop::find);
    assertEquals(2, secrets.secretsOf(Handshake.Kind.APPLICATION, APP).size(), "job's and derived");

    secrets.forget(APP); // the sponge service's stopApplication ran first: the file is still there
    assertTrue(drop.find(APP).isPresent());
    assertEquals(
        List.of(),
        secrets.secretsOf(Handshake.Kind.APPLICATION, APP),
        "a stopped application's secret was believed again");
    assertTrue(secrets.derivedSecretOf(APP).isEmpty(), "its derived secret is void here too");
    drop.remove(APP); // the relay's stopApplication
    assertEquals(List.of(), secrets.secretsOf(Handshake.Kind.APPLICATION, APP));
  }
}
