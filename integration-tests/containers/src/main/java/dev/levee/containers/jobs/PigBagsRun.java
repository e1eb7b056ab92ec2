package dev.levee.containers.jobs;

import dev.levee.it.sponge.pig.SpamPages;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.pig.ExecType;
import org.apache.pig.PigConfiguration;
import org.apache.pig.PigServer;
import org.apache.pig.backend.executionengine.ExecJob;
import org.apache.pig.tools.pigstats.PigStats;
import org.apache.pig.tools.pigstats.mapreduce.MRJobStats;

/**
 * Pig on YARN from the client container, with the paper's Spam Quantiles shape ({@link SpamPages},
 * the data and script of integration-tests/hadoop's PigBagsOnYarnTest): {@code PigBagsRun
 * <stock|sponge> <dir>} writes {@code <dir>/pages.tsv} unless there (60,000 rows of one hot site,
 * 1,500 of each of twelve others), groups it by site with a nested ORDER BY, a nested DISTINCT and
 * two holistic UDFs in one reducer with a small heap, into {@code <dir>/<mode>}, and prints what
 * {@link JobReport} prints: the job's counters and a digest of its output.
 *
 * <p>{@code sponge} runs with the distribution's pig.properties and its commented bag lines
 * switched on, as an operator would (SpongeFiles' bag factory on the task JVMs, factory bags for
 * every operator); {@code stock} with Pig's own bags and Hadoop's own shuffle. Both get the same
 * reducer heap and bag memory share, so the hot group's bags spill many times in both.
 */
public final class PigBagsRun {
  static final String LEVEE_PIG_PROPERTIES = "/opt/levee/conf/pig.properties";
  static final String UDF_JAR = "/opt/jobs/it-hadoop-tests.jar";
  static final String TASK_JVM = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1";
  static final String REDUCE_HEAP = "-Xmx128m ";

  /** Bags spill themselves past 2 % of the heap (about 2.5 MB of tuples here). */
  static final String MEMUSAGE = "0.02";

  private PigBagsRun() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2 || !(args[0].equals("stock") || args[0].equals("sponge"))) {
      System.err.println("usage: PigBagsRun <stock|sponge> <dir>");
      System.exit(2);
    }
    boolean sponge = args[0].equals("sponge");
    Path dir = new Path(args[1]);
    FileSystem fs = dir.getFileSystem(new Configuration());
    Path input = new Path(dir, "pages.tsv");
    if (!fs.exists(input)) {
      writePages(fs, input);
    }
    Path output = new Path(dir, args[0]);
    fs.delete(output, true);

    PigServer pig = new PigServer(ExecType.MAPREDUCE, properties(sponge));
    try {
      pig.registerJar(UDF_JAR);
      pig.setBatchOn();
      for (String query : SpamPages.queries(input.toString(), output.toString())) {
        pig.registerQuery(query);
      }
      List<ExecJob> jobs = pig.executeBatch();
      ExecJob store = jobs.get(jobs.size() - 1);
      PigStats stats = store.getStatistics();
      boolean ok = store.getStatus() == ExecJob.JOB_STATUS.COMPLETED && stats.isSuccessful();
      if (!ok) {
        System.err.println(
            "Pig run failed: " + stats.getErrorMessage() + " " + store.getException());
      }
      MRJobStats job = (MRJobStats) stats.getJobGraph().getSources().get(0);
      System.out.println("PIG_JOBS\t" + stats.getNumberJobs());
      if (job.getHadoopCounters() == null) {
        System.err.println("Pig could not fetch the job's counters");
        System.exit(1);
      }
      JobReport.print(new Counters(job.getHadoopCounters()), ok, fs, output);
      System.exit(ok ? 0 : 1);
    } finally {
      pig.shutdown();
    }
  }

  /** What the run sets: the sample's lines and the bag lines for sponge, Pig's own for stock. */
  private static Properties properties(boolean sponge) throws Exception {
    Properties p = new Properties();
    // Pig appends its default collector flag to task JVM options holding anything else, and two
    // collectors kill the JVM: name the one the options use.
    p.setProperty(PigConfiguration.PIG_GC_PARAMS, "-XX:+UseSerialGC");
    // The nested ORDER BY and DISTINCT must build bags, not ride on a secondary sort.
    p.setProperty("pig.exec.nosecondarykey", "true");
    p.setProperty("pig.cachedbag.memusage", MEMUSAGE);
    if (!sponge) {
      p.setProperty(
          "mapreduce.job.reduce.shuffle.consumer.plugin.class",
          "org.apache.hadoop.mapreduce.task.reduce.Shuffle");
      p.setProperty("mapreduce.reduce.java.opts", REDUCE_HEAP + TASK_JVM);
      return p;
    }
    try (InputStream in = Files.newInputStream(java.nio.file.Path.of(LEVEE_PIG_PROPERTIES))) {
      p.load(in);
    }
    // The sample's commented lines, switched on: the factory for the task JVMs (its jar at the
    // path the distribution has on every node), factory bags for every operator.
    String jar = p.getProperty("pig.additional.jars");
    String factory =
        " -Dpig.data.bag.factory.name=dev.levee.sponge.pig.SpongeBagFactory"
            + " -Dpig.data.bag.factory.jar=file://"
            + jar;
    p.setProperty("mapreduce.reduce.java.opts", REDUCE_HEAP + TASK_JVM + factory);
    p.setProperty("mapreduce.map.java.opts", TASK_JVM + factory);
    p.setProperty("pig.cachedbag.type", "default");
    p.setProperty("pig.cachedbag.sort.type", "default");
    p.setProperty("pig.cachedbag.distinct.type", "default");
    return p;
  }

  private static void writePages(FileSystem fs, Path input) throws Exception {
    try (var out = fs.create(input, true)) {
      for (String row : SpamPages.rows()) {
        out.write((row + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
  }
}
