package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 13, item 11 on a real NodeManager: MapReduce gives the job's shuffle token only to the
 * {@code mapreduce_shuffle} service (every other provider service gets an empty buffer), so the
 * sponge server never learnt a job's secret on YARN and tasks could not authenticate. The relaying
 * ShuffleHandler leaves it where only the NodeManager's user can read it.
 */
class JobSecretRelayTest {
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
  void theShuffleHandlerLeavesEachJobsSecretForTheSpongeServerUntilTheApplicationEnds()
      throws Exception {
    byte[] password = "shuffle-secret-of-app-7".getBytes();
    Token<JobTokenIdentifier> token =
        new Token<>(
            new JobTokenIdentifier(new Text("job_1_0007")).getBytes(),
            password,
            JobTokenIdentifier.KIND_NAME,
            new Text(""));
    ApplicationId app = ApplicationId.newInstance(1, 7);
    Configuration conf = new Configuration(false);
    conf.set(YarnConfiguration.NM_LOCAL_DIRS, localDir.toString());
    conf.setInt(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY, 0);
    JobSecretRelayingShuffleHandler shuffle = new JobSecretRelayingShuffleHandler();
    shuffle.init(conf);
    shuffle.start();
    try {
      ByteBuffer data = ShuffleHandler.serializeServiceData(token);
      shuffle.initializeApplication(new ApplicationInitializationContext("u", app, data));

      JobSecretDrop drop = new JobSecretDrop(List.of(localDir));
      assertArrayEquals(password, drop.find(app.toString()).orElseThrow());
      Path file = localDir.resolve(JobSecretDrop.RELATIVE_DIR).resolve(app.toString());
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
      assertEquals(
          "rwx------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));

      // What the sponge server does with it: a task proving that secret is that application.
      ApplicationSecrets secrets = new ApplicationSecrets(null);
      secrets.lookUpIn(drop::find);
      assertArrayEquals(
          password,
          secrets
              .secretsOf(dev.levee.sponge.protocol.Handshake.Kind.APPLICATION, app.toString())
              .get(0)
              .bytes());

      shuffle.stopApplication(new ApplicationTerminationContext(app));
      assertFalse(Files.exists(file), "the secret outlived its application");
    } finally {
      shuffle.stop();
    }
  }

  @Test
  void onlyAnApplicationIdNamesAFileAndOnlyAPrivateRegularFileIsBelieved() throws IOException {
    JobSecretDrop drop = new JobSecretDrop(List.of(localDir));
    drop.put("application_1_0001", new byte[] {1, 2, 3});
    Path dir = localDir.resolve(JobSecretDrop.RELATIVE_DIR);
    // A private file one level up: a client naming "../x" would reach it without the name check.
    Path outside = Files.write(dir.getParent().resolve("x"), new byte[] {7});
    Files.setPosixFilePermissions(outside, PosixFilePermissions.fromString("rw-------"));
    assertTrue(drop.find("../x").isEmpty(), "a path named by a client was read");
    assertThrows(IllegalArgumentException.class, () -> drop.put("../x", new byte[] {1}));

    Files.setPosixFilePermissions(
        dir.resolve("application_1_0001"), PosixFilePermissions.fromString("rw-r--r--"));
    assertTrue(drop.find("application_1_0001").isEmpty(), "a world-readable secret was believed");

    Path elsewhere = Files.write(localDir.resolve("planted"), new byte[] {9});
    Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rw-------"));
    Files.createSymbolicLink(dir.resolve("application_1_0002"), elsewhere);
    assertTrue(drop.find("application_1_0002").isEmpty(), "a link was followed");
  }

  /**
   * Issue 28: the NodeManager stops aux services in hash order, so the sponge service forgot a
   * stopped application's secret before the relay deleted its file; a handshake in that window
   * looked the file up again and cached the secret until the NodeManager restarted.
   */
  @Test
  void aStoppedApplicationsSecretIsNotLookedUpAgainWhileItsFileLingers() throws IOException {
    String app = "application_1_0001";
    JobSecretDrop drop = new JobSecretDrop(List.of(localDir));
    drop.put(app, "job-secret".getBytes());
    ApplicationSecrets secrets =
        new ApplicationSecrets("a cluster secret of 32 bytes....".getBytes());
    secrets.lookUpIn(drop::find);
    assertEquals(2, secrets.secretsOf(Handshake.Kind.APPLICATION, app).size(), "job's and derived");

    secrets.forget(app); // the sponge service's stopApplication ran first: the file is still there
    assertTrue(drop.find(app).isPresent());
    assertEquals(
        List.of(),
        secrets.secretsOf(Handshake.Kind.APPLICATION, app),
        "a stopped application's secret was believed again");
    assertTrue(secrets.derivedSecretOf(app).isEmpty(), "its derived secret is void here too");
    drop.remove(app); // the relay's stopApplication
    assertEquals(List.of(), secrets.secretsOf(Handshake.Kind.APPLICATION, app));
  }
}
