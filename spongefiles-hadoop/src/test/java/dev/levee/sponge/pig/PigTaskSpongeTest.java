package dev.levee.sponge.pig;

import static dev.levee.sponge.pig.Tuples.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.SpongeCounters;
import dev.levee.sponge.SpongeCounters.PigBag;
import dev.levee.sponge.Tier;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.server.SpongeService;
import dev.levee.sponge.testing.CapturedLog;
import dev.levee.sponge.testing.TempDirs;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.log4j.Level;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.PigMapReduce;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How a Pig task finds its sponge: as a reduce task does (node keys, the node's server probed), and
 * what it does without one.
 */
class PigTaskSpongeTest {
  private static final int CHUNK = 64 * 1024;
  private static final TaskAttemptID REDUCE = TaskAttemptID.forName("attempt_1_0007_r_000000_0");

  private Path shm;
  private final Map<String, Long> counters = new ConcurrentHashMap<>();

  @BeforeEach
  void dirs() throws Exception {
    shm = TempDirs.newShmDir("pig-task");
    if (!org.apache.log4j.Logger.getRootLogger().getAllAppenders().hasMoreElements()) {
      org.apache.log4j.BasicConfigurator.configure();
    }
  }

  @AfterEach
  void clean() {
    TempDirs.deleteRecursively(shm);
  }

  private JobConf job(int port) {
    JobConf job = new JobConf(false);
    job.set(SpongeConf.LOCAL_POOL_DIR.name(), shm.resolve("pool").toString());
    job.set(SpongeConf.LOCAL_POOL_SIZE.name(), Long.toString(64L * CHUNK));
    job.set(SpongeConf.CHUNK_SIZE.name(), Integer.toString(CHUNK));
    job.set(SpongeConf.OWNER_HOST.name(), "127.0.0.1");
    job.set(SpongeConf.ADVERTISED_HOST.name(), "127.0.0.1");
    job.set(SpongeConf.DFS_ENABLED.name(), "false");
    job.set(SpongeConf.DISK_DIRS.name(), shm.resolve("disk").toString());
    job.setInt(SpongeConf.PORT.name(), port);
    // The explicit opt-out: no NodeManager relays a job secret to this test's server.
    job.set(SpongeConf.AUTH_REQUIRED.name(), "false");
    return job;
  }

  private PigTaskSponge task(Configuration conf) {
    return new PigTaskSponge(
        () -> conf, () -> REDUCE, (name, delta) -> counters.merge(name, delta, Long::sum));
  }

  private static SpongeFactoryBags bags(PigTaskSponge task) {
    return new SpongeFactoryBags(new SpongeBagFactory(new BagSettings(task::space, 0)));
  }

  /** A default bag holding 3 spills and memory, read back. */
  private record SpongeFactoryBags(SpongeBagFactory factory) {
    List<Tuple> spillThreeTimesAndRead(List<Tuple> all) {
      DataBag bag = factory.newDefaultBag();
      for (int i = 0; i < all.size(); i++) {
        bag.add(all.get(i));
        if (i % 500 == 499 && i < 1500) {
          bag.spill();
        }
      }
      return read(bag);
    }
  }

  @Test
  void aTaskUsesItsNodesSpongeFoundAsAReduceFindsIt() throws Exception {
    Configuration server = job(0);
    server.set(SpongeConf.BIND_HOST.name(), "127.0.0.1");
    try (SpongeService node = SpongeService.start(SpongeServerConfig.from(server))) {
      PigTaskSponge task = task(job(node.address().port()));
      try {
        assertTrue(task.space().usesSponge());
        List<Tuple> all = Tuples.sequence(0, 1800);
        assertEquals(all, bags(task).spillThreeTimesAndRead(all));
        assertEquals(3L, counters.get(PigBag.SPILLS.counterName()));
        assertTrue(
            counters.get(PigBag.perTier(SpongeCounters.PerTier.BYTES_WRITTEN, Tier.LOCAL_MEMORY))
                > 0);
        assertFalse(counters.containsKey(PigBag.FALLBACKS.counterName()));
        assertSame(task.space(), task.space(), "attached once");
      } finally {
        task.close();
      }
    }
  }

  @Test
  void withoutAReachableSpongeBagsSpillToLocalFilesSaySoOnceAndStayCorrect() throws Exception {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    PigTaskSponge task = task(job(deadPort));
    try (CapturedLog log = CapturedLog.start()) {
      SpongeFactoryBags bags = bags(task);
      List<Tuple> all = Tuples.sequence(0, 1800);
      assertEquals(all, bags.spillThreeTimesAndRead(all));
      assertEquals(all, bags.spillThreeTimesAndRead(all), "a second bag");
      List<String> warnings = log.messages(Level.WARN, "dev.levee.sponge.pig");
      assertEquals(1, warnings.size(), "said once: " + warnings);
      assertTrue(
          warnings.get(0).contains("Pig bags spill to local files as stock Pig does")
              && warnings.get(0).contains(REDUCE.toString()),
          warnings.get(0));
    }
    assertFalse(task.space().usesSponge());
    assertEquals(1L, counters.get(PigBag.FALLBACKS.counterName()));
    assertEquals(6L, counters.get(PigBag.LOCAL_FILE_SPILLS.counterName()));
    assertFalse(counters.containsKey(PigBag.SPILLS.counterName()));
  }

  @Test
  void outsideATaskBagsSpillToLocalFiles() {
    PigTaskSponge frontEnd =
        new PigTaskSponge(
            () -> null, () -> null, (name, delta) -> counters.merge(name, delta, Long::sum));
    List<Tuple> all = Tuples.sequence(0, 1800);
    assertEquals(all, bags(frontEnd).spillThreeTimesAndRead(all));
    assertFalse(frontEnd.space().usesSponge());
  }

  @Test
  void anInvalidSpongeValueFailsTheTaskAtItsFirstBagNamingTheKey() {
    Configuration conf = job(1);
    conf.set(SpongeConf.CHUNK_SIZE.name(), "12 parsecs");
    Configuration before = PigMapReduce.sJobConf;
    PigMapReduce.sJobConf = conf;
    try {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> new SpongeBagFactory().newDefaultBag());
      assertTrue(e.getMessage().contains(SpongeConf.CHUNK_SIZE.name()), e.getMessage());
    } finally {
      PigMapReduce.sJobConf = before;
    }
  }

  @Test
  void pigChoosesTheFactoryFromItsSystemProperties() throws Exception {
    String jar =
        SpongeBagFactory.class.getProtectionDomain().getCodeSource().getLocation().toString();
    System.setProperty("pig.data.bag.factory.name", SpongeBagFactory.class.getName());
    System.setProperty("pig.data.bag.factory.jar", jar);
    try {
      org.apache.pig.data.BagFactory.resetSelf();
      assertSame(SpongeBagFactory.class, org.apache.pig.data.BagFactory.getInstance().getClass());
      assertTrue(
          org.apache.pig.data.BagFactory.getInstance().newSortedBag(null)
              instanceof SpongeSortedBag);
    } finally {
      System.clearProperty("pig.data.bag.factory.name");
      System.clearProperty("pig.data.bag.factory.jar");
      org.apache.pig.data.BagFactory.resetSelf();
    }
  }
}
