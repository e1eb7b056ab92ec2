package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.testing.TempDirs;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 28: after its pool directory was deleted a server stopped allocating, but FREE_SPACE (what
 * the tracker publishes and clients place by) still advertised the whole pool.
 */
@Timeout(60)
class PoolOutOfServiceTest {
  @Test
  void aServerWhosePoolDirectoryWasDeletedAdvertisesNoFreeSpace() throws Exception {
    Path dir = TempDirs.newShmDir("out-of-service");
    try (SpongeService node = SpongeService.start(SpongeServerConfig.from(TestNodes.conf(dir, 4)));
        SpongeClient client = TestNodes.client("application_1_0001", "127.0.0.1:1", List.of())) {
      assertEquals(4, client.freeSpace(node.address()).freeChunks());
      TempDirs.deleteRecursively(dir);
      node.collectGarbage(); // the round that notices
      assertEquals(
          0,
          client.freeSpace(node.address()).freeChunks(),
          "a pool the server no longer allocates from is advertised");
    } finally {
      TempDirs.deleteRecursively(dir);
    }
  }
}
