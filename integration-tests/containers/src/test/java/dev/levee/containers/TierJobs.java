package dev.levee.containers;

/**
 * The headline jobs of each plugin as the client container submits them, stock or with the plugin
 * on as its sample configuration says: one place for their command lines, which the tier's tests
 * and {@code ./levee demo --cluster containers} ({@link ClusterDemo}) share.
 */
final class TierJobs {
  /** The skewed job's reducers: a heap so small that the hot partition must spill. */
  static final String REDUCE_OPTS = "-Xmx64m " + ClusterConf.TASK_JVM;

  /** The skewed job's default size: maps, records per map, value bytes. */
  static final String SKEWED_SIZE = "4 20000 1000";

  private TierJobs() {}

  /**
   * {@code jobs.SkewedShuffle} of {@code size} into {@code /out/<name>}: SpongeFiles on as the
   * cluster's mapred-site has it unless {@code options} switch it off ({@link
   * ClusterConf#STOCK_JOB}).
   */
  static JobRun skewedShuffle(ContainerCluster c, String name, String options, String size) {
    return JobRun.parse(
        c.tryExec(
            600,
            "client",
            ContainerCluster.clientJava(
                "dev.levee.containers.jobs.SkewedShuffle",
                "-D mapreduce.job.name="
                    + name
                    + " -D mapreduce.reduce.java.opts='"
                    + REDUCE_OPTS
                    + "' "
                    + options
                    + " /out/"
                    + name
                    + " "
                    + size)));
  }

  /** Themis for one job, as mapred-site.themis.xml says: its collector, its shuffle, its jar. */
  static String themis(ContainerCluster c) {
    return "-D mapreduce.job.map.output.collector.class=dev.levee.themis.map.ThemisMapOutputCollector"
        + " -D mapreduce.job.reduce.shuffle.consumer.plugin.class="
        + "dev.levee.themis.reduce.ThemisShuffle"
        + " -libjars "
        + c.pluginJar("themis-shuffle");
  }

  /** Hadoop's example WordCount on {@code files} seeded files into {@code /wordcount/<name>}. */
  static JobRun wordCount(ContainerCluster c, String name, String options, long files) {
    return clientJob(
        c, "WordCountRun", name, options, "/wordcount/" + name + " " + files + " 15000 2");
  }

  /** Runs {@code jobs.<main>} from the client as job {@code name} with {@code options}. */
  static JobRun clientJob(
      ContainerCluster c, String main, String name, String options, String args) {
    return JobRun.parse(
        c.tryExec(
            600,
            "client",
            ContainerCluster.clientJava(
                "dev.levee.containers.jobs." + main,
                "-D mapreduce.job.name=" + name + " " + options + " " + args)));
  }

  /**
   * Piranha's running example ({@code jobs.TopWordsRun}) over {@code files} files of 4,000 lines,
   * as the stock chain or one Piranha DAG, with the distribution's piranha-site.xml and jar.
   */
  static JobRun topWords(
      ContainerCluster c, String name, String options, String mode, int files, int reducers) {
    return piranhaClient(
        c,
        "TopWordsRun",
        "-D mapreduce.job.name="
            + name
            + " -D mapreduce.job.jar="
            + ContainerCluster.JOB_JAR
            + " "
            + options
            + " /topwords "
            + files
            + " 4000 "
            + reducers
            + " "
            + mode);
  }

  /** One of the Piranha paper's queries ({@code jobs.PaperQueryRun}), the chain or Piranha. */
  static JobRun paperQuery(
      ContainerCluster c, String query, String mode, int records, int files, int reducers) {
    return piranhaClient(
        c,
        "PaperQueryRun",
        query + " /paper-queries " + records + " " + files + " " + reducers + " " + mode);
  }

  private static JobRun piranhaClient(ContainerCluster c, String main, String args) {
    String piranhaJar = c.pluginJar("piranha-dag");
    return JobRun.parse(
        c.tryExec(
            480,
            "client",
            ContainerCluster.clientJava(
                piranhaJar,
                "dev.levee.containers.jobs." + main,
                "-conf "
                    + ContainerCluster.LEVEE
                    + "/conf/piranha-site.xml -libjars "
                    + piranhaJar
                    + " "
                    + args)));
  }
}
