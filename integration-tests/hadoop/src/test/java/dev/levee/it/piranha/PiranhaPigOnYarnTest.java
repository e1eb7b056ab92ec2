package dev.levee.it.piranha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.ClusterFiles;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.it.hadoop.TestClusters;
import dev.levee.it.pig.PigOnMiniCluster;
import dev.levee.it.zk.ZooKeeperServers;
import dev.levee.piranha.pig.PiranhaExecType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.pig.ExecType;
import org.apache.pig.PigServer;
import org.apache.pig.backend.executionengine.ExecJob;
import org.apache.pig.tools.pigstats.PigStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Pig Latin top-k query (LOAD, FOREACH with FLATTEN(TOKENIZE), FILTER, GROUP with the algebraic
 * COUNT, ORDER ... LIMIT, STORE) parsed and compiled by Pig 0.18 itself and run as one Piranha job
 * on YARN with {@code -x piranha}; stock Pig running the same script is the oracle.
 */
class PiranhaPigOnYarnTest {
  @RegisterExtension static final SharedClusterExtension CLUSTER = TestClusters.SHARED;

  private static final Path BASE = new Path("/it/piranha/pig");
  private static final Path IN = new Path(BASE, "in");
  private static TestingServer zk;

  static final String TOP_WORDS = dev.levee.piranha.examples.TopWords.pigScript(15);

  @BeforeAll
  static void setUp() throws Exception {
    zk = ZooKeeperServers.standalone(java.nio.file.Path.of("target", "zookeeper-piranha-pig"));
    TopWordsDags.writeInput(CLUSTER.cluster().fileSystem(), IN, 2, 1500, 9);
  }

  @AfterAll
  static void tearDown() throws Exception {
    if (zk != null) {
      zk.close();
    }
  }

  @Test
  void aTopKScriptRunsAsOnePiranhaJobWithStockPigsOutput() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    FileSystem fs = cluster.fileSystem();

    // The oracle: stock Pig on the same script and the same bytes (local mode keeps CI time down;
    // it is the same parser, optimizer and physical operators).
    java.nio.file.Path local = java.nio.file.Path.of("target", "it-piranha-pig").toAbsolutePath();
    deleteTree(local);
    java.nio.file.Path localIn = Files.createDirectories(local.resolve("in"));
    for (org.apache.hadoop.fs.FileStatus st : fs.listStatus(IN)) {
      Path f = st.getPath();
      Files.write(
          localIn.resolve(f.getName()),
          String.join("\n", ClusterFiles.readLines(fs, f))
              .concat("\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    PigStats stock =
        run(new PigServer(ExecType.LOCAL), localIn.toString(), local.resolve("out").toString());
    List<String> expected = new ArrayList<>();
    try (Stream<java.nio.file.Path> parts = Files.list(local.resolve("out"))) {
      for (java.nio.file.Path p :
          parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList()) {
        expected.addAll(Files.readAllLines(p));
      }
    }
    assertEquals(15, expected.size(), "stock Pig's top 15");

    Properties props = new Properties();
    props.setProperty("levee.piranha.zookeeper.quorum", zk.getConnectString());
    props.setProperty("levee.piranha.zookeeper.root", "/it/pig");
    props.setProperty("levee.piranha.capacity.check", "false");
    Path out = new Path(BASE, "out");
    PigServer piranha =
        new PigServer(new PiranhaExecType(), PigOnMiniCluster.properties(cluster, props));
    PigStats stats = run(piranha, IN.toString(), out.toString());
    assertEquals(expected, ClusterFiles.readOutput(fs, out), "Piranha's output equals stock Pig's");

    // What Pig reports of the run: before, an empty record (0 records, no job, no statistics on
    // the ExecJob), whatever the script wrote.
    assertTrue(stats.isSuccessful());
    assertEquals(1, stats.getNumberJobs(), "the one Piranha job");
    assertEquals(stock.getRecordWritten(), stats.getRecordWritten(), "records written, as stock's");
    assertEquals(15, stats.getRecordWritten());
    assertEquals(1, stats.getOutputStats().size());
    assertEquals(15, stats.getOutputStats().get(0).getNumberRecords());
    assertEquals(out.toString(), stats.getOutputStats().get(0).getLocation());
    long stored = 0;
    for (Path f : ClusterFiles.partFiles(fs, out)) {
      stored += fs.getFileStatus(f).getLen();
    }
    assertEquals(stored, stats.getBytesWritten(), "the bytes in the output's part files");
    assertTrue(stats.getDisplayString().contains("Successfully stored 15 records"));
    assertTrue(fs.exists(new Path(out, "_SUCCESS")));
    List<Path> files = ClusterFiles.partFiles(fs, out);
    assertEquals(1, files.size(), files.toString());
    assertTrue(
        files.get(0).getName().startsWith("part-m-"),
        "written by the terminal task of the map-only Piranha job, not a stock reducer: " + files);
  }

  private static PigStats run(PigServer pig, String in, String out) throws Exception {
    try {
      pig.setBatchOn();
      pig.registerQuery(TOP_WORDS.replace("$in", in).replace("$out", out));
      List<ExecJob> jobs = pig.executeBatch();
      assertEquals(1, jobs.size());
      assertEquals(
          ExecJob.JOB_STATUS.COMPLETED, jobs.get(0).getStatus(), "" + jobs.get(0).getException());
      assertNotNull(jobs.get(0).getStatistics(), "the ExecJob carries the run's statistics");
      return jobs.get(0).getStatistics();
    } finally {
      pig.shutdown();
    }
  }

  private static void deleteTree(java.nio.file.Path p) throws Exception {
    if (Files.exists(p)) {
      try (Stream<java.nio.file.Path> all = Files.walk(p)) {
        for (java.nio.file.Path x : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(x);
        }
      }
    }
  }
}
