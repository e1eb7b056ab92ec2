package dev.levee.containers;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * {@code ./levee demo --cluster containers}: each plugin's headline job on the cluster of
 * containers, stock and then with the plugin on as its sample configuration says, and one table:
 * whether the outputs are equal, what the plugin did that only a multi-node cluster shows (bytes in
 * other containers' memory, one YARN job instead of a chain, reducers fetching across nodes), and
 * each run's wall time.
 *
 * <p>The times are one run each, on however many cores this machine has running every daemon of the
 * cluster: they show the jobs work across node boundaries, not which is faster. The bench measures
 * speed (medians of several runs, beside the machine's limits).
 */
final class ClusterDemo {
  private static final String SPONGE = "Levee SpongeFiles";
  private static final String THEMIS = "Levee Themis";
  private static final String PIRANHA = "Levee Piranha run";
  private static final int FILES = 2;
  private static final int REDUCERS = 2;

  /** One row: a job, stock and with the plugin. */
  record Row(
      String plugin,
      String job,
      double stockSeconds,
      double pluginSeconds,
      boolean stockOk,
      boolean pluginOk,
      boolean equal,
      String what) {}

  private final ContainerCluster cluster;
  private final SparkStandalone spark;

  ClusterDemo(ContainerCluster cluster, SparkStandalone spark) {
    this.cluster = cluster;
    this.spark = spark;
  }

  /** Runs every row, printing each as it ends, then the table; false when any row failed. */
  boolean run() {
    List<Row> rows = new ArrayList<>();
    rows.add(spongeFiles());
    rows.add(themis());
    rows.add(piranhaTopWords());
    for (String query : List.of("top-k-domains", "non-spam-top-k-anchor")) {
      rows.add(piranhaPaperQuery(query));
    }
    rows.add(leakyBuffer());
    System.out.println();
    System.out.println(table(rows));
    return rows.stream().allMatch(r -> r.stockOk() && r.pluginOk() && r.equal());
  }

  private Row spongeFiles() {
    Timed<JobRun> stock =
        time(
            () ->
                TierJobs.skewedShuffle(
                    cluster, "demo-stock", ClusterConf.STOCK_JOB, TierJobs.SKEWED_SIZE));
    Timed<JobRun> sponge =
        time(() -> TierJobs.skewedShuffle(cluster, "demo-sponge", "", TierJobs.SKEWED_SIZE));
    JobRun s = sponge.value();
    return hadoopRow(
        "SpongeFiles",
        "skewed reduce: 4 maps x 20,000 1 KB records, 64 MB reducer heap",
        stock,
        sponge,
        String.format(
            Locale.ROOT,
            "reducer spilled %s to its node's memory, %s to other containers', %s to disk",
            mb(s.counter(SPONGE, "local_memory.bytes_written")),
            mb(s.counter(SPONGE, "remote_memory.bytes_written")),
            mb(s.counter(SPONGE, "local_disk.bytes_written"))));
  }

  private Row themis() {
    Timed<JobRun> stock =
        time(() -> TierJobs.wordCount(cluster, "demo-wc-stock", ClusterConf.STOCK_JOB, FILES));
    Timed<JobRun> themis =
        time(() -> TierJobs.wordCount(cluster, "demo-wc-themis", TierJobs.themis(cluster), FILES));
    JobRun t = themis.value();
    return hadoopRow(
        "Themis",
        "Hadoop's WordCount, " + FILES + " maps, 2 reducers",
        stock,
        themis,
        String.format(
            Locale.ROOT,
            "%d map outputs written once each; its reducers fetched %s",
            t.counter(THEMIS, "map.outputs.sorted") + t.counter(THEMIS, "map.outputs.unsorted"),
            mb(t.counter(THEMIS, "reduce.fetched.bytes"))));
  }

  private Row piranhaTopWords() {
    Timed<JobRun> chain =
        time(() -> TierJobs.topWords(cluster, "demo-top-stock", "", "stock", FILES, REDUCERS));
    Timed<JobRun> piranha =
        time(() -> TierJobs.topWords(cluster, "demo-top-piranha", "", "piranha", FILES, REDUCERS));
    return hadoopRow("Piranha", "top 20 words (2 chained jobs)", chain, piranha, ran(piranha));
  }

  private Row piranhaPaperQuery(String query) {
    int records = 20_000;
    Timed<JobRun> chain =
        time(() -> TierJobs.paperQuery(cluster, query, "stock", records, FILES, REDUCERS));
    Timed<JobRun> piranha =
        time(() -> TierJobs.paperQuery(cluster, query, "piranha", records, FILES, REDUCERS));
    return hadoopRow("Piranha", query + " (paper query)", chain, piranha, ran(piranha));
  }

  private static String ran(Timed<JobRun> piranha) {
    JobRun p = piranha.value();
    return p.counter(PIRANHA, "as piranha") == 1
        ? String.format(
            Locale.ROOT,
            "ran as %d YARN job, %d stages, attempt %d; rendezvous via the 3 ZooKeeper servers",
            p.counter(PIRANHA, "jobs"),
            p.counter(PIRANHA, "stages"),
            p.counter(PIRANHA, "attempts"))
        : "fell back to the chain (see its log)";
  }

  private Row leakyBuffer() {
    int records = 200_000;
    Timed<SparkRun> stock = time(() -> SparkRun.submit(spark, "stock", "", records, 2));
    Timed<SparkRun> leaky = time(() -> SparkRun.submit(spark, "leaky", SparkRun.LEAKY, records, 2));
    SparkRun s = stock.value();
    SparkRun l = leaky.value();
    boolean equal =
        List.of("groups", "grouped_values", "group_digest", "join_pairs", "join_digest").stream()
            .allMatch(k -> s.get(k).equals(l.get(k)));
    long underLeaky =
        l.reduceTasks().stream()
            .filter(t -> t.contains("manager=org.apache.spark.shuffle.levee.LeakyShuffleManager"))
            .count();
    Row row =
        new Row(
            "leaky buffer",
            "Spark groupByKey + join, 200,000 skewed pairs",
            stock.seconds(),
            leaky.seconds(),
            s.succeeded(),
            l.succeeded(),
            s.succeeded() && l.succeeded() && equal,
            String.format(
                Locale.ROOT,
                "%d of %d reduce tasks under the leaky manager on workers %s",
                underLeaky,
                l.reduceTasks().size(),
                l.get("executor_hosts")));
    report(row, s.succeeded() ? "" : s.tail(), l.succeeded() ? "" : l.tail());
    return row;
  }

  private static Row hadoopRow(
      String plugin, String job, Timed<JobRun> stock, Timed<JobRun> withPlugin, String what) {
    JobRun s = stock.value();
    JobRun p = withPlugin.value();
    Row row =
        new Row(
            plugin,
            job,
            stock.seconds(),
            withPlugin.seconds(),
            s.succeeded(),
            p.succeeded(),
            s.succeeded() && p.succeeded() && s.output().equals(p.output()),
            what);
    report(row, s.succeeded() ? "" : s.tail(), p.succeeded() ? "" : p.tail());
    return row;
  }

  private static void report(Row row, String stockLog, String pluginLog) {
    System.out.printf(
        Locale.ROOT,
        "levee demo (containers): %s, %s: stock %.0f s, plugin %.0f s, outputs %s%n",
        row.plugin(),
        row.job(),
        row.stockSeconds(),
        row.pluginSeconds(),
        verdict(row));
    if (!stockLog.isEmpty()) {
      System.out.println("stock run failed:\n" + stockLog);
    }
    if (!pluginLog.isEmpty()) {
      System.out.println("plugin run failed:\n" + pluginLog);
    }
  }

  private static String verdict(Row r) {
    if (!r.stockOk() || !r.pluginOk()) {
      return "FAILED (" + (r.stockOk() ? "" : "stock ") + (r.pluginOk() ? "" : "plugin") + ")";
    }
    return r.equal() ? "equal" : "DIFFERENT";
  }

  static String table(List<Row> rows) {
    StringBuilder t = new StringBuilder();
    t.append(
        String.format(
            Locale.ROOT,
            "%-13s %-62s %7s %8s  %-9s %s%n",
            "plugin",
            "job",
            "stock s",
            "plugin s",
            "output",
            "what the plugin did across the containers"));
    for (Row r : rows) {
      t.append(
          String.format(
              Locale.ROOT,
              "%-13s %-62s %7.0f %8.0f  %-9s %s%n",
              r.plugin(),
              r.job(),
              r.stockSeconds(),
              r.pluginSeconds(),
              verdict(r),
              r.what()));
    }
    t.append(
        "One run each, every daemon of the cluster on this machine's cores: the times show the"
            + " jobs work across node boundaries, not speed (./levee bench measures that).");
    return t.toString();
  }

  private static String mb(long bytes) {
    return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
  }

  private record Timed<T>(T value, double seconds) {}

  private static <T> Timed<T> time(Supplier<T> run) {
    long start = System.nanoTime();
    T value = run.get();
    return new Timed<>(value, (System.nanoTime() - start) / 1e9);
  }
}
