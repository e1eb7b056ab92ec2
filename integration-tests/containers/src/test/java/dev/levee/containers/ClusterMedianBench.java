package dev.levee.containers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./levee cluster median [reps]}: the SpongeFiles paper's Median job on a cluster of
 * containers, stock Hadoop against SpongeFiles, where the in-JVM clusters cannot put it: each
 * NodeManager a container with a real memory limit (the kernel's, 2 GiB) and its own sponge pool in
 * its own {@code /dev/shm}, the reducer's remote chunks crossing real network interfaces, first at
 * the bridge's own speed and then on links shaped to the paper's 1 Gb Ethernet (an emulation:
 * {@link LinkShaper}). Each link runs {@code reps} rounds of both arms, their order alternating; it
 * prints each run, then the medians, and writes the runs as JSON lines under
 * .levee/runs/cluster-median-<time>/.
 *
 * <p>The reducer gets a 64 MiB heap, so its 80 MB shuffle spills: stock to its node's disk (this
 * machine's, page cache included), SpongeFiles into its node's pool (32 MiB) and then the two other
 * NodeManagers' pools over the network. Every run's median must agree, or the run is reported as
 * wrong.
 */
public final class ClusterMedianBench {
  static final String NAME = "median";
  static final long NUMBERS = 8_000_000;
  static final int FILES = 4;
  static final String GROUP = "Levee SpongeFiles";

  private ClusterMedianBench() {}

  record Run(
      String link,
      String arm,
      int round,
      boolean ok,
      double seconds,
      Map<String, Long> bytes,
      String output) {}

  public static void main(String[] args) throws Exception {
    int reps = args.length > 0 && args[0].matches("\\d{1,2}") ? Integer.parseInt(args[0]) : -1;
    if (args.length == 0) {
      reps = 3;
    }
    if (reps < 1 || reps > 20) {
      System.err.println(
          "levee: cluster median takes one optional count of rounds per link, 1 to 20 (default 3),"
              + " got '"
              + String.join(" ", args)
              + "'");
      System.exit(2);
    }
    LinkShaper.requireTc();
    String stamp =
        DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC)
            .format(Instant.now());
    Path runDir =
        Path.of(System.getProperty("levee.runs", ".levee/runs"), "cluster-median-" + stamp);
    Files.createDirectories(runDir);
    List<Run> runs = new ArrayList<>();
    try (ContainerCluster cluster =
        new ContainerCluster(
            NAME, 3, new ContainerCluster.NodeSize("2g", "96m", "32m", 1280), Map.of())) {
      cluster.start();
      List<String> nodes = new ArrayList<>(List.of("dn1", "client"));
      for (int i = 1; i <= 3; i++) {
        nodes.add(cluster.nodeManager(i));
      }
      LinkShaper links = new LinkShaper(cluster, nodes);
      median(
          cluster, "warm-up", ClusterConf.STOCK_JOB); // writes the numbers; JVM and page cache warm
      for (String link : List.of("bridge", "1gbit")) {
        if (!link.equals("bridge")) {
          links.shape(link);
        }
        for (int round = 1; round <= reps; round++) {
          List<String> arms =
              round % 2 == 1 ? List.of("stock", "sponge") : List.of("sponge", "stock");
          for (String arm : arms) {
            JobRun r =
                median(
                    cluster,
                    link + "-" + arm + "-" + round,
                    arm.equals("stock") ? ClusterConf.STOCK_JOB : "");
            Run run =
                new Run(
                    link,
                    arm,
                    round,
                    r.succeeded(),
                    seconds(r),
                    bytes(r),
                    String.valueOf(r.output()));
            runs.add(run);
            System.out.printf(
                Locale.ROOT,
                "median on containers: link %s, %s, round %d: %s%n",
                link,
                arm,
                round,
                run);
            Files.writeString(
                runDir.resolve("results.jsonl"),
                json(run) + "\n",
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
          }
        }
        if (!link.equals("bridge")) {
          String stats = links.statistics();
          System.out.println("shaped links, as their queues report them:\n" + stats);
          Files.writeString(runDir.resolve("links-" + link + ".txt"), stats);
          links.unshape();
        }
      }
    }
    String table = table(runs, reps);
    System.out.println(table);
    Files.writeString(runDir.resolve("summary.txt"), table);
    System.out.println("runs written to " + runDir);
    boolean sameAnswer = runs.stream().map(Run::output).distinct().count() == 1;
    System.exit(runs.stream().allMatch(Run::ok) && sameAnswer ? 0 : 1);
  }

  private static JobRun median(ContainerCluster cluster, String name, String options) {
    return JobRun.parse(
        cluster.tryExec(
            900,
            "client",
            ContainerCluster.clientJava(
                ContainerCluster.BENCH_HADOOP_JAR,
                "dev.levee.containers.jobs.MedianOnCluster",
                "-D mapreduce.job.name="
                    + name
                    + " -D mapreduce.reduce.java.opts='"
                    + TierJobs.REDUCE_OPTS
                    + "' "
                    + options
                    + " /median "
                    + NUMBERS
                    + " "
                    + FILES)));
  }

  private static double seconds(JobRun r) {
    return Arrays.stream(r.stdout().split("\n"))
        .filter(l -> l.startsWith("SECONDS\t"))
        .mapToDouble(l -> Double.parseDouble(l.substring("SECONDS\t".length())))
        .findFirst()
        .orElse(Double.NaN);
  }

  private static Map<String, Long> bytes(JobRun r) {
    Map<String, Long> b = new LinkedHashMap<>();
    b.put("sponge_local_memory", r.counter(GROUP, "local_memory.bytes_written"));
    b.put("sponge_remote_memory", r.counter(GROUP, "remote_memory.bytes_written"));
    b.put("sponge_local_disk", r.counter(GROUP, "local_disk.bytes_written"));
    b.put(
        "file_bytes_written",
        r.counter("org.apache.hadoop.mapreduce.FileSystemCounter", "FILE_BYTES_WRITTEN"));
    b.put(
        "spilled_records", r.counter("org.apache.hadoop.mapreduce.TaskCounter", "SPILLED_RECORDS"));
    return b;
  }

  private static String json(Run r) {
    StringBuilder j = new StringBuilder();
    j.append(
        String.format(
            Locale.ROOT,
            "{\"suite\":\"cluster-median\",\"link\":\"%s\",\"arm\":\"%s\",\"round\":%d,\"ok\":%s,\"seconds\":%.3f,\"numbers\":%d",
            r.link(),
            r.arm(),
            r.round(),
            r.ok(),
            r.seconds(),
            NUMBERS));
    r.bytes().forEach((k, v) -> j.append(",\"").append(k).append("\":").append(v));
    return j.append(",\"output\":\"")
        .append(r.output().replace("\"", "'"))
        .append("\"}")
        .toString();
  }

  static String table(List<Run> runs, int reps) {
    StringBuilder t = new StringBuilder();
    t.append(
        String.format(
            Locale.ROOT,
            "%nMedian of %,d numbers, one reducer with a 64 MiB heap; medians of %d runs per arm%n",
            NUMBERS,
            reps));
    t.append(
        String.format(
            Locale.ROOT,
            "%-8s %-7s %9s %10s  %s%n",
            "link",
            "arm",
            "median s",
            "sponge/stock",
            "bytes (its first run)"));
    for (String link : List.of("bridge", "1gbit")) {
      double stock = medianSeconds(runs, link, "stock");
      for (String arm : List.of("stock", "sponge")) {
        double s = medianSeconds(runs, link, arm);
        Run example =
            runs.stream()
                .filter(r -> r.link().equals(link) && r.arm().equals(arm))
                .findFirst()
                .orElse(null);
        t.append(
            String.format(
                Locale.ROOT,
                "%-8s %-7s %9.1f %10s  %s%n",
                link,
                arm,
                s,
                arm.equals("sponge") ? String.format(Locale.ROOT, "%.2f", s / stock) : "",
                example == null ? "" : example.bytes()));
      }
    }
    long failed = runs.stream().filter(r -> !r.ok()).count();
    long answers = runs.stream().map(Run::output).distinct().count();
    t.append(
        String.format(
            Locale.ROOT,
            "%d runs, %d failed, %d distinct answer(s)%n",
            runs.size(),
            failed,
            answers));
    t.append(
        "1gbit: every node's link shaped to 1 Gbit/s by a token bucket on the host (an emulation of the paper's 1 Gb Ethernet; no added latency)");
    return t.toString();
  }

  private static double medianSeconds(List<Run> runs, String link, String arm) {
    double[] s =
        runs.stream()
            .filter(r -> r.ok() && r.link().equals(link) && r.arm().equals(arm))
            .mapToDouble(Run::seconds)
            .sorted()
            .toArray();
    if (s.length == 0) {
      return Double.NaN;
    }
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
