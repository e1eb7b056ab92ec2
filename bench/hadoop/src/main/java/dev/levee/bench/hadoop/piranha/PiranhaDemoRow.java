package dev.levee.bench.hadoop.piranha;

import dev.levee.bench.SuiteContext;
import dev.levee.bench.demo.DemoTable;
import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.results.Measurement;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.zk.ZooKeeperServers;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Piranha's row of {@code ./levee demo}: a Pig Latin top-k query, run by stock Pig ({@code -x
 * mapreduce}) and by Piranha ({@code -x piranha}) on the same cluster and input; the outputs must
 * be equal or the demo fails.
 */
public final class PiranhaDemoRow {
  static final String MODULE = "piranha-dag";
  static final String SCRIPT = dev.levee.piranha.examples.TopWords.pigScript(10);

  private PiranhaDemoRow() {}

  /** Runs the row on {@code cluster} over {@code records} seeded web records. */
  public static void run(
      SuiteContext context,
      MiniMapReduceCluster cluster,
      long records,
      String runId,
      java.nio.file.Path zkDir)
      throws Exception {
    Path input = new Path("/demo/piranha/web");
    new DatasetWriter(cluster.clientConf())
        .writeBuiltIn(
            "web",
            42,
            Map.of(),
            new DatasetWriter.Plan(input.toString(), records, 2, 2, true),
            context.progress("piranha demo data", records, "records"));
    try (TestingServer zk = ZooKeeperServers.standalone(zkDir)) {
      Map<String, Object> params = new LinkedHashMap<>();
      params.put(DemoTable.RUN_ID, runId);
      params.put(DemoTable.MODULE, MODULE);
      params.put(
          DemoTable.WORKLOAD,
          String.format(
              "Pig top-10 words of %,d web records (GROUP, COUNT, ORDER ... LIMIT)", records));
      FileSystem fs = cluster.fileSystem();

      Path stockOut = new Path("/demo/piranha/stock");
      double stockSeconds =
          PigScripts.run(PigScripts.stock(cluster, new Properties()), SCRIPT, input, stockOut);
      context.record(Measurement.STOCK, params, Map.of(DemoTable.SECONDS, stockSeconds), 0);

      Path piranhaOut = new Path("/demo/piranha/piranha");
      double piranhaSeconds =
          PigScripts.run(
              PigScripts.piranha(cluster, zk.getConnectString(), new Properties()),
              SCRIPT,
              input,
              piranhaOut);
      List<String> expected = read(fs, stockOut);
      List<String> got = read(fs, piranhaOut);
      if (expected.isEmpty() || !expected.equals(got)) {
        throw new IllegalStateException(
            "demo-hadoop: Piranha's top-k " + got + " differs from stock Pig's " + expected);
      }
      Map<String, Object> same = new LinkedHashMap<>(params);
      same.put(DemoTable.SAME_OUTPUT, "yes");
      context.record(DemoTable.PLUGIN, same, Map.of(DemoTable.SECONDS, piranhaSeconds), 0);
      context
          .err()
          .printf(
              "demo-hadoop: Pig top-k stock %.1f s, Piranha %.1f s%n",
              stockSeconds, piranhaSeconds);
    }
  }

  static List<String> read(FileSystem fs, Path dir) throws java.io.IOException {
    List<String> lines = new ArrayList<>();
    FileStatus[] parts = fs.listStatus(dir, p -> p.getName().startsWith("part-"));
    Arrays.sort(parts);
    for (FileStatus st : parts) {
      try (BufferedReader r =
          new BufferedReader(
              new InputStreamReader(fs.open(st.getPath()), StandardCharsets.UTF_8))) {
        for (String l = r.readLine(); l != null; l = r.readLine()) {
          lines.add(l);
        }
      }
    }
    return lines;
  }
}
