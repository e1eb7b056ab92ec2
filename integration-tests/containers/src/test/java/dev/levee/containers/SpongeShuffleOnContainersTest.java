package dev.levee.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SpongeFiles' reduce side on a cluster of containers: a skewed reducer whose shuffle is larger
 * than its heap spills to its node's pool, then to pools in other containers (other /dev/shm, other
 * network address, reached over the bridge), then to disk; its output equals stock Hadoop's on the
 * same cluster.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class SpongeShuffleOnContainersTest {
  static final String GROUP = "Levee SpongeFiles";
  static final int POOL_MB = 16;
  static final String REDUCE_OPTS = "-Xmx64m " + ClusterConf.TASK_JVM;
  static final String STOCK_SHUFFLE = "org.apache.hadoop.mapreduce.task.reduce.Shuffle";

  private static ContainerCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(Engine.reachable(), Engine.SKIP_MESSAGE);
    cluster =
        new ContainerCluster(
            "sponge", 3, new ContainerCluster.NodeSize("2g", "64m", POOL_MB + "m", 1280), Map.of());
    cluster.start();
  }

  // JUnit runs this after a failed start too: the containers a half-started cluster left go.
  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void skewedReducerSpillsIntoOtherContainersMemoryAndMatchesStock() {
    JobRun stock =
        skewedJob(
            "stock", "-D mapreduce.job.reduce.shuffle.consumer.plugin.class=" + STOCK_SHUFFLE);
    assertTrue(stock.succeeded(), "stock job failed: " + stock.tail());
    JobRun sponge = skewedJob("sponge", "");
    assertTrue(sponge.succeeded(), "sponge job failed: " + sponge.tail());

    System.err.printf(
        "stock: %s; sponge: %s; sponge bytes written: local memory %d, remote memory %d, local disk %d%n",
        stock.output(),
        sponge.output(),
        sponge.counter(GROUP, "local_memory.bytes_written"),
        sponge.counter(GROUP, "remote_memory.bytes_written"),
        sponge.counter(GROUP, "local_disk.bytes_written"));
    assertEquals(stock.output(), sponge.output(), "SpongeFiles output equals stock");
    assertEquals(0, sponge.counter(GROUP, "shuffle.fallbacks"), "the sponge path ran, no fallback");
    assertEquals(
        0, stock.counter(GROUP, "local_memory.bytes_written"), "stock wrote nothing to sponges");
    // Pools are counted in chunks (the sample configuration's 1 MiB): a pool is full when it holds
    // POOL_MB chunks. Bytes are not exact: the last chunk of a spill file is only partly filled,
    // and where spill files end depends on merge timing.
    long localChunks = sponge.counter(GROUP, "local_memory.chunks_written");
    long remoteChunks = sponge.counter(GROUP, "remote_memory.chunks_written");
    long remote = sponge.counter(GROUP, "remote_memory.bytes_written");
    assertEquals(POOL_MB, localChunks, "the reducer's own node's pool filled up, and no more");
    // Only the two other NodeManager containers hold remote chunks: their pools are the sole
    // remote memory, reached over the bridge network.
    assertEquals(
        2L * POOL_MB,
        remoteChunks,
        "both other containers' pools filled with this reducer's chunks");
    assertTrue(
        remote > 0 && remote <= (2L * POOL_MB) << 20,
        "the remote chunks hold some bytes and no more than two pools, got " + remote);
    assertTrue(sponge.counter(GROUP, "local_disk.bytes_written") > 0, "the rest went to disk");
    assertEquals(
        remote,
        sponge.counter(GROUP, "remote_memory.bytes_read"),
        "every remote chunk was read back");
  }

  private static JobRun skewedJob(String name, String options) {
    String command =
        ContainerCluster.clientJava(
            "dev.levee.containers.jobs.SkewedShuffle",
            "-D mapreduce.job.name="
                + name
                + " -D mapreduce.reduce.java.opts='"
                + REDUCE_OPTS
                + "' "
                + options
                + " /out/"
                + name
                + " 4 20000 1000");
    return JobRun.parse(cluster.tryExec(600, "client", command));
  }
}
