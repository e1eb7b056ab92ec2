package dev.levee.it.piranha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.pig.PigOnMiniCluster;
import dev.levee.piranha.pig.PiranhaExecType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.curator.test.TestingServer;
import org.apache.pig.ExecType;
import org.apache.pig.PigServer;
import org.apache.pig.backend.executionengine.ExecJob;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pig Latin through Piranha on Hadoop's local job runner (every task a thread of this JVM): the
 * top-k and DISTINCT scripts run as Piranha DAGs, an unsupported one (JOIN) on stock Pig, and every
 * output equals stock Pig's on the same script.
 */
class PiranhaPigLocalTest {
  @TempDir static Path dir;
  private static TestingServer zk;
  private static Path in;

  @BeforeAll
  static void setUp() throws Exception {
    zk = new TestingServer(-1, dir.resolve("zk").toFile(), true);
    in = Files.createDirectories(dir.resolve("in"));
    Random r = new Random(3);
    for (int f = 0; f < 2; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 800 * (f + 1); i++) {
        StringBuilder s = new StringBuilder();
        for (int w = 0, n = 1 + r.nextInt(8); w < n; w++) {
          s.append(w == 0 ? "" : " ").append("w").append((int) Math.pow(3000, r.nextDouble()));
        }
        lines.add(s.toString());
      }
      Files.write(in.resolve("words-" + f + ".txt"), lines, StandardCharsets.UTF_8);
    }
  }

  @AfterAll
  static void tearDown() throws Exception {
    zk.close();
  }

  private static Properties piranha(String name) {
    Properties p = new Properties();
    // No *-site.xml on this classpath: Pig takes these properties as the Hadoop configuration.
    p.setProperty(PigOnMiniCluster.USE_GIVEN_HADOOP_CONFIG, "true");
    p.setProperty("mapreduce.framework.name", "local");
    p.setProperty("fs.defaultFS", "file:///");
    p.setProperty("hadoop.tmp.dir", dir.resolve("tmp-" + name).toString());
    p.setProperty("mapreduce.cluster.local.dir", dir.resolve("local-" + name).toString());
    p.setProperty("levee.piranha.zookeeper.quorum", zk.getConnectString());
    p.setProperty("levee.piranha.zookeeper.root", "/pig-local");
    p.setProperty("levee.piranha.checkpoint.dfs-dir", dir.resolve("scratch").toString());
    return p;
  }

  /** Pig compiles DISTINCT to a shuffle with a distinct packager: a plan Piranha runs. */
  @Test
  void distinctRunsOnPiranhaWithStockPigsOutput() throws Exception {
    String script =
        String.join(
            "\n",
            "lines = LOAD '$in' AS (line:chararray);",
            "words = FOREACH lines GENERATE FLATTEN(TOKENIZE(line)) AS word;",
            "d = DISTINCT words;",
            "STORE d INTO '$out';");
    List<String> expected = sorted(run(new PigServer(ExecType.LOCAL), script, "stock-distinct"));
    List<String> got =
        sorted(
            run(
                new PigServer(new PiranhaExecType(), piranha("distinct")),
                script,
                "piranha-distinct"));
    assertEquals(expected, got);
    assertTrue(partNames("piranha-distinct").get(0).startsWith("part-m-"), "ran on Piranha");
  }

  @Test
  void anUnsupportedScriptRunsOnStockPig() throws Exception {
    String script =
        String.join(
            "\n",
            "a = LOAD '$in' AS (line:chararray);",
            "b = LOAD '$in' AS (line:chararray);",
            "j = JOIN a BY line, b BY line;",
            "STORE j INTO '$out';");
    List<String> expected = sorted(run(new PigServer(ExecType.LOCAL), script, "stock-join"));
    List<String> got =
        sorted(run(new PigServer(new PiranhaExecType(), piranha("join")), script, "piranha-join"));
    assertTrue(expected.size() > 1000, "the join's output: " + expected.size() + " lines");
    assertEquals(expected, got);
    assertEquals(
        List.of("part-r-00000"), partNames("piranha-join"), "written by a stock Pig reducer");
  }

  private static List<String> sorted(List<String> l) {
    List<String> s = new ArrayList<>(l);
    s.sort(null);
    return s;
  }

  private static List<String> partNames(String out) throws Exception {
    try (Stream<Path> parts = Files.list(dir.resolve(out))) {
      return parts
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("part-"))
          .sorted()
          .toList();
    }
  }

  private static List<String> run(PigServer pig, String script, String out) throws Exception {
    Path o = dir.resolve(out);
    try {
      pig.setBatchOn();
      pig.registerQuery(script.replace("$in", in.toString()).replace("$out", o.toString()));
      List<ExecJob> jobs = pig.executeBatch();
      assertEquals(1, jobs.size());
      assertEquals(
          ExecJob.JOB_STATUS.COMPLETED, jobs.get(0).getStatus(), "" + jobs.get(0).getException());
    } finally {
      pig.shutdown();
    }
    List<String> lines = new ArrayList<>();
    try (Stream<Path> parts = Files.list(o)) {
      for (Path p :
          parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList()) {
        lines.addAll(Files.readAllLines(p));
      }
    }
    return lines;
  }
}
