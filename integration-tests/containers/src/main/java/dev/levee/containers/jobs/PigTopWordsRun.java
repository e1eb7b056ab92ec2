package dev.levee.containers.jobs;

import dev.levee.piranha.examples.TopWords;
import java.util.List;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.pig.ExecTypeProvider;
import org.apache.pig.PigServer;
import org.apache.pig.backend.executionengine.ExecJob;
import org.apache.pig.tools.pigstats.PigStats;

/**
 * A Pig Latin top-k query (the one in piranha-dag's README: LOAD, FLATTEN(TOKENIZE), FILTER, GROUP
 * with the algebraic COUNT, ORDER ... LIMIT, STORE) from the client container through PigServer:
 * {@code PigTopWordsRun <mapreduce|piranha> <dir> <files> <lines-per-file>}. The exec type is
 * looked up by name as {@code pig -x <name>} does: {@code mapreduce} is stock Pig on YARN, {@code
 * piranha} Piranha's Pig path, with the ensemble named as the README's {@code -D} does, its value
 * read from the distribution's piranha-site.xml. Prints the execution engine Pig chose ({@code
 * ENGINE}), the jobs its statistics count ({@code PIG_JOBS}), their kind ({@code PIG_STATS}) and
 * the records they say were written ({@code PIG_RECORDS}), the output's part files ({@code PART})
 * and what {@link JobReport} prints for the output; exit 0 when Pig succeeded.
 */
public final class PigTopWordsRun {
  static final String PIRANHA_SITE = "/opt/levee/conf/piranha-site.xml";
  static final String QUORUM = "levee.piranha.zookeeper.quorum";
  static final String COMMONS_COLLECTIONS = "/opt/pig/lib/commons-collections-3.2.2.jar";

  /** The README's top-k script, k = 15. */
  static final String SCRIPT = TopWords.pigScript(15);

  private PigTopWordsRun() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 4 || !(args[0].equals("mapreduce") || args[0].equals("piranha"))) {
      System.err.println(
          "usage: PigTopWordsRun <mapreduce|piranha> <dir> <files> <lines-per-file>");
      System.exit(2);
    }
    Configuration conf = new Configuration();
    TextInput text = TextInput.of(conf, new String[] {args[1], args[2], args[3]});
    Path input = text.ensure("words-", 11, false, TopWordsRun::powerLawWords);
    Path output = text.freshOutput("pig-" + args[0]);
    Properties properties = new Properties();
    // Pig would append its default collector to task options that name none; name the cluster's.
    properties.setProperty("pig.gc.default.params", "-XX:+UseSerialGC");
    if (args[0].equals("piranha")) {
      Configuration site = new Configuration(false);
      site.addResource(new Path("file://" + PIRANHA_SITE));
      properties.setProperty(QUORUM, site.get(QUORUM));
    }
    // The exec type by name, looked up as `pig -x <name>` looks it up (Piranha's jar registers
    // "piranha" as a service).
    PigServer pig = new PigServer(ExecTypeProvider.fromString(args[0]), properties);
    System.out.println("ENGINE\t" + pig.getPigContext().getExecutionEngine().getClass().getName());
    boolean ok;
    int jobs;
    String statsKind;
    long records;
    try {
      // Pig 0.18's ORDER BY sampler needs commons-collections 3 in the task JVMs, which its pom
      // omits and Hadoop 3 no longer has (only version 4): a Pig user on Hadoop 3 ships it, so
      // both runs do.
      pig.registerJar(COMMONS_COLLECTIONS);
      pig.setBatchOn();
      pig.registerQuery(SCRIPT.replace("$in", input.toString()).replace("$out", output.toString()));
      List<ExecJob> run = pig.executeBatch();
      ok =
          !run.isEmpty()
              && run.stream().allMatch(j -> j.getStatus() == ExecJob.JOB_STATUS.COMPLETED);
      // Stock Pig's statistics count its MapReduce jobs; Piranha's count its one job, and name it
      // in their summary: print both, so the test tells a stock chain from a Piranha run.
      PigStats stats = run.isEmpty() ? null : run.get(0).getStatistics();
      jobs = stats == null ? 0 : stats.getNumberJobs();
      statsKind = stats == null ? "none" : stats.getClass().getSimpleName();
      records = stats == null ? -1 : stats.getRecordWritten();
      if (!ok) {
        run.forEach(j -> System.err.println("Pig job " + j.getStatus() + ": " + j.getException()));
      }
    } finally {
      pig.shutdown();
    }
    System.out.println("PIG_JOBS\t" + jobs);
    System.out.println("PIG_STATS\t" + statsKind);
    System.out.println("PIG_RECORDS\t" + records);
    if (ok) {
      for (FileStatus part : text.fs().listStatus(output, p -> p.getName().startsWith("part-"))) {
        System.out.println("PART\t" + part.getPath().getName());
      }
    }
    JobReport.print(new org.apache.hadoop.mapreduce.Counters(), ok, text.fs(), output);
    System.exit(ok ? 0 : 1);
  }
}
