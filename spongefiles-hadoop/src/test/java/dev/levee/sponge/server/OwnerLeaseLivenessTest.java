package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.SharedMemoryPool;
import dev.levee.sponge.testing.ChildJvm;
import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.ContainerTerminationContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 13 item 4: a local owner's liveness is its lease in the pool (a lock the kernel drops when
 * it dies, whatever its pid namespace), not its pid in the server's namespace; and the
 * NodeManager's "container stopped" signal frees that container's chunks at once.
 */
@Timeout(120)
class OwnerLeaseLivenessTest {
  private static final int CHUNKS = 16;
  private static final String CONTAINER_A = "container_1700000000000_0007_01_000002";
  private static final String CONTAINER_B = "container_1700000000000_0007_01_000003";
  private Path dir;
  private Path stderr;
  private SpongeService node;

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("lease");
    stderr = Path.of(System.getProperty("java.io.tmpdir"), "sponge-lease-children.err");
    node = SpongeService.start(SpongeServerConfig.from(TestNodes.conf(dir, CHUNKS)));
  }

  @AfterEach
  void tearDown() {
    if (node != null) {
      node.close();
    }
    TempDirs.deleteRecursively(dir);
  }

  private SharedMemoryPool attach() throws IOException {
    return SharedMemoryPool.open(dir, (long) CHUNKS * TestNodes.CHUNK, TestNodes.CHUNK);
  }

  private ChildJvm holder(String containerId, int chunks) throws IOException {
    return ChildJvm.start(
        SpongeChild.class,
        stderr,
        Map.of("CONTAINER_ID", containerId),
        "local",
        dir.toString(),
        Long.toString((long) CHUNKS * TestNodes.CHUNK),
        Integer.toString(TestNodes.CHUNK),
        TestNodes.OWNER_HOST,
        Integer.toString(chunks));
  }

  @Test
  void aThreadIdIsNotALiveOwner() throws IOException {
    long pid = ProcessHandle.current().pid();
    long tid;
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      tid =
          tasks
              .map(p -> Long.parseLong(p.getFileName().toString()))
              .filter(t -> t != pid)
              .findFirst()
              .orElseThrow();
    }
    try (SharedMemoryPool pool = attach()) {
      int c = pool.allocate(new ChunkOwner(tid, TestNodes.OWNER_HOST)).orElseThrow();
      assertEquals(1, node.collectGarbage(), "thread " + tid + " of pid " + pid + " owns nothing");
      assertNull(pool.ownerOf(c));
    }
  }

  @Test
  void aContainerOwnerIsAliveByItsLeaseNotByAPidAndDeadOnceKilled() throws Exception {
    try (ChildJvm task = holder(CONTAINER_A, 3);
        SharedMemoryPool pool = attach()) {
      assertEquals("HOLDING 3", task.awaitLine("HOLDING"));
      Collection<ChunkOwner> owners = pool.owners().values();
      assertEquals(3, owners.size());
      for (ChunkOwner o : owners) {
        // The id names the container's process, not a pid in the server's namespace: a pid check
        // here would find no such process and free a live task's chunks (what the review saw).
        assertNotEquals(task.pid(), o.pid());
        assertTrue(o.pid() >= ChunkOwner.CONTAINER_ID_BASE, o.toString());
      }
      assertEquals(0, node.collectGarbage(), "a live container owner keeps its chunks");
      assertEquals(CHUNKS - 3, pool.freeChunks());
      task.kill9();
      assertEquals(3, node.collectGarbage(), "the kernel dropped the dead owner's lease");
      assertEquals(CHUNKS, pool.freeChunks());
    }
  }

  @Test
  void theNodeManagersContainerStopFreesThatContainersChunksAtOnceAndOnlyThose() throws Exception {
    node.close(); // the aux service runs this node's server instead
    node = null;
    SpongeAuxService aux = new SpongeAuxService();
    aux.init(TestNodes.conf(dir, CHUNKS));
    aux.start();
    try (ChildJvm a = holder(CONTAINER_A, 2);
        ChildJvm b = holder(CONTAINER_B, 3);
        SharedMemoryPool pool = attach()) {
      assertEquals("HOLDING 2", a.awaitLine("HOLDING"));
      assertEquals("HOLDING 3", b.awaitLine("HOLDING"));
      aux.stopContainer(
          new ContainerTerminationContext("someone", ContainerId.fromString(CONTAINER_A), null));
      assertEquals(CHUNKS - 3, pool.freeChunks(), "A's 2 chunks are free, B's 3 stay");
      aux.stopApplication(
          new ApplicationTerminationContext(
              ContainerId.fromString(CONTAINER_B).getApplicationAttemptId().getApplicationId()));
      assertEquals(CHUNKS, pool.freeChunks(), "the application's last container's chunks too");
    } finally {
      aux.stop();
    }
  }
}
