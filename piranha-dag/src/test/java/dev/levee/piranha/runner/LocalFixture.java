package dev.levee.piranha.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;

/**
 * In-process MapReduce (the local job runner) and a real ZooKeeper server, for unit tests; the
 * bench's tests use it from this module's test jar.
 */
public final class LocalFixture implements AutoCloseable {
  final TestingServer zk;
  final Path dir;

  public LocalFixture(Path dir) throws Exception {
    this.dir = dir;
    this.zk = new TestingServer(-1, dir.resolve("zk").toFile(), true);
  }

  /** A job configuration for the local runner under this fixture's directory and ZooKeeper. */
  public Configuration conf() {
    Configuration c = new Configuration();
    c.set("mapreduce.framework.name", "local");
    c.set("fs.defaultFS", "file:///");
    c.set("mapreduce.cluster.local.dir", dir.resolve("mr-local").toString());
    c.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
    c.set("mapreduce.jobtracker.staging.root.dir", dir.resolve("staging").toString());
    c.set("levee.piranha.zookeeper.quorum", zk.getConnectString());
    c.setInt("mapreduce.client.completion.pollinterval", 100);
    c.set("levee.piranha.zookeeper.session-timeout-ms", "10000");
    c.set("levee.piranha.checkpoint.dfs-dir", dir.resolve("piranha-scratch").toString());
    return c;
  }

  /** Text files of Zipf-ish words, of different sizes so splits sort differently from files. */
  static Path words(Path dir, int files, int linesPerFile, long seed) throws IOException {
    Files.createDirectories(dir);
    Random r = new Random(seed);
    for (int f = 0; f < files; f++) {
      List<String> lines = new ArrayList<>();
      int n = linesPerFile * (f + 1);
      for (int i = 0; i < n; i++) {
        StringBuilder s = new StringBuilder();
        int words = 1 + r.nextInt(8);
        for (int w = 0; w < words; w++) {
          double u = r.nextDouble();
          int rank = (int) Math.floor(Math.pow(2000, u));
          s.append(w == 0 ? "" : " ").append("w").append(rank).append(rank % 7 == 0 ? "x" : "");
        }
        lines.add(s.toString());
      }
      Files.write(dir.resolve("part-" + f + ".txt"), lines, StandardCharsets.UTF_8);
    }
    return dir;
  }

  /** Every line of every part file, files in name order. */
  static List<String> output(Path dir) throws IOException {
    List<String> all = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p :
          files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList()) {
        all.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
      }
    }
    return all;
  }

  static void runAll(List<Job> jobs) throws Exception {
    for (Job j : jobs) {
      if (!j.waitForCompletion(false)) {
        throw new AssertionError("stock job " + j.getJobName() + " failed");
      }
    }
  }

  @Override
  public void close() throws IOException {
    zk.close();
  }
}
