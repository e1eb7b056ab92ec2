package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The NodeManager aux service lifecycle: init validates, start serves, application end frees, stop
 * releases.
 */
@Timeout(60)
class SpongeAuxServiceTest {
  private Path dir;

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("aux");
  }

  @AfterEach
  void tearDown() {
    TempDirs.deleteRecursively(dir);
  }

  @Test
  void servesWhileStartedAndFreesAFinishedApplicationsChunks() throws IOException {
    SpongeAuxService aux = new SpongeAuxService();
    aux.init(TestNodes.conf(dir, 8));
    aux.start();
    int port = aux.getMetaData().getInt();
    try {
      assertEquals(Service.STATE.STARTED, aux.getServiceState());
      SpongeServerAddress server = new SpongeServerAddress("127.0.0.1", port, null);
      ApplicationId app = ApplicationId.newInstance(1_700_000_000_000L, 7);
      try (SpongeClient client = TestNodes.client(app.toString(), "127.0.0.1:1", List.of(server))) {
        for (int i = 0; i < 3; i++) {
          client.store(server, TestNodes.randomBytes(100, i)).orElseThrow();
        }
        assertEquals(5, aux.node().metrics().getChunksFree());
        aux.stopApplication(new ApplicationTerminationContext(app));
        assertEquals(8, aux.node().metrics().getChunksFree());
      }
    } finally {
      aux.stop();
    }
    assertEquals(Service.STATE.STOPPED, aux.getServiceState());
    try (SpongeClient client = TestNodes.client("application_1_0001", "127.0.0.1:1", List.of())) {
      assertThrows(
          IOException.class,
          () -> client.freeSpace(new SpongeServerAddress("127.0.0.1", port, null)),
          "a stopped service no longer listens");
    }
  }

  @Test
  void aBadKeyStopsTheServiceAtInitNamingTheKey() {
    Configuration conf = TestNodes.conf(dir, 8);
    conf.set(SpongeConf.QUOTA_CHUNKS_PER_APP.name(), "-1");
    SpongeAuxService aux = new SpongeAuxService();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> aux.init(conf));
    assertTrue(
        e.getMessage().contains("levee.sponge.server.quota.chunks-per-application='-1'"),
        e.getMessage());
    assertEquals(Service.STATE.STOPPED, aux.getServiceState());
  }
}
