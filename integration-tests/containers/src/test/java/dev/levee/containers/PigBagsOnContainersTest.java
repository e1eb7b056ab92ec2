package dev.levee.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pig's bags spilling into SpongeFiles on the cluster of containers: Pig on YARN from the client
 * container ({@code jobs.PigBagsRun}, Pig 0.18 from /opt/pig/lib), switched on as the
 * distribution's pig.properties says with its commented bag lines on. The paper's Spam Quantiles
 * shape: one hot group of 60,000 rows in one reducer with a 128 MB heap, a nested ORDER BY, a
 * nested DISTINCT and two holistic UDFs. Every kind of bag spills into sponge memory, none to local
 * files, the output equals stock Pig's on the same cluster, and every pool is free afterwards.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class PigBagsOnContainersTest {
  static final String GROUP = "Levee SpongeFiles";

  @RegisterExtension static final SharedContainerCluster CLUSTER = new SharedContainerCluster();

  @Test
  void pigBagsSpillIntoSpongeMemoryAcrossNodesAndMatchStock() {
    JobRun stock = pig("stock");
    assertTrue(stock.succeeded(), "stock Pig failed: " + stock.tail());
    JobRun sponge = pig("sponge");
    assertTrue(sponge.succeeded(), "Pig with SpongeFiles' bags failed: " + sponge.tail());
    long local = sponge.counter(GROUP, "pig.local_memory.bytes_written");
    long remote = sponge.counter(GROUP, "pig.remote_memory.bytes_written");
    long disk = sponge.counter(GROUP, "pig.local_disk.bytes_written");
    System.err.printf(
        "pig bags: stock %s; sponge %s; bag spills default %d, sorted %d, distinct %d;"
            + " bytes local memory %d, remote memory %d, disk %d; chunks local memory %d, remote"
            + " memory %d; the job's shuffle (same pools) chunks local memory %d, remote memory %d;"
            + " stock local-file spills %d%n",
        stock.output(),
        sponge.output(),
        sponge.counter(GROUP, "pig.bag_spills.default"),
        sponge.counter(GROUP, "pig.bag_spills.sorted"),
        sponge.counter(GROUP, "pig.bag_spills.distinct"),
        local,
        remote,
        disk,
        sponge.counter(GROUP, "pig.local_memory.chunks_written"),
        sponge.counter(GROUP, "pig.remote_memory.chunks_written"),
        sponge.counter(GROUP, "local_memory.chunks_written"),
        sponge.counter(GROUP, "remote_memory.chunks_written"),
        stock.counter(GROUP, "pig.local_file_spills"));
    assertEquals(stock.output(), sponge.output(), "SpongeFiles' bags give stock Pig's output");
    assertTrue(stock.output().startsWith("13 lines"), "one line per site: " + stock.output());
    assertEquals(0, sponge.counter(GROUP, "pig.fallbacks"), "the reducer had its sponge");
    assertEquals(0, sponge.counter(GROUP, "pig.local_file_spills"), "no bag spilled to a file");
    assertTrue(sponge.counter(GROUP, "pig.bag_spills.default") >= 3, "default bags spilled");
    assertTrue(sponge.counter(GROUP, "pig.bag_spills.sorted") >= 6, "sorted bags spilled");
    assertTrue(sponge.counter(GROUP, "pig.bag_spills.distinct") >= 1, "distinct bags spilled");
    assertTrue(local > 0, "bags spilled into the reducer's own node's pool");
    // The hot group's 40-odd spill files live at once, more than the 16 chunks of one pool.
    assertTrue(remote > 0, "bags spilled into the other containers' pools");
    assertTrue(local + remote + disk > 20L << 20, "the spills' bytes, all of them");
    Docker.Result pools = CLUSTER.cluster().awaitSpongePoolsFree(120);
    assertEquals(0, pools.exitCode(), "every pool free after the Pig job: " + pools.out());
  }

  private static JobRun pig(String mode) {
    return JobRun.parse(
        CLUSTER
            .cluster()
            .tryExec(
                600,
                "client",
                ContainerCluster.clientJava(
                    ContainerCluster.PIG_LIB + "/*",
                    "dev.levee.containers.jobs.PigBagsRun",
                    mode + " /pig-bags")));
  }
}
