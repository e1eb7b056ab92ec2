package dev.levee.it.hadoop;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.util.VersionInfo;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The settings that make a MapReduce mini cluster small and quick on a two-core machine, all in one
 * place so the tests, the bench and the demo run the same cluster. Values were measured: defaults
 * make a one-map job take about a minute and shutdown take half a minute.
 */
public final class MiniClusterSettings {

  /** A parallel collector does not pay off in short tasks with small heaps. */
  public static final String TASK_GC_FLAG = "-XX:+UseSerialGC";

  /** Same flags for every task JVM: nor does the JIT's top tier. */
  public static final String TASK_JVM_FLAGS = "-XX:TieredStopAtLevel=1 " + TASK_GC_FLAG;

  public static final int AM_MEMORY_MB = 512;
  public static final int TASK_MEMORY_MB = 384;

  /**
   * The JobClient polls for completion at this rate; stock is 5 s, which would dominate a 20 s job.
   */
  public static final int CLIENT_POLL_MS = 100;

  private MiniClusterSettings() {}

  /**
   * A fresh configuration with every setting below; {@code workDir} receives Hadoop's local scratch
   * space (stock is /tmp/hadoop-$USER, shared with anything else on the machine).
   */
  static Configuration create(Path workDir, int nodeManagerMemoryMb) {
    Configuration conf = new YarnConfiguration();
    conf.set(CommonConfigurationKeys.HADOOP_TMP_DIR, workDir.resolve("hadoop-tmp").toString());
    // Staging and history directories are shared by the client, the AM and the JobHistoryServer.
    conf.set(CommonConfigurationKeys.FS_PERMISSIONS_UMASK_KEY, "000");

    conf.set(MRConfig.FRAMEWORK_NAME, MRConfig.YARN_FRAMEWORK_NAME);
    // Uber mode would run tasks inside the AM and skip the shuffle the plugins replace.
    conf.setBoolean(MRJobConfig.JOB_UBERTASK_ENABLE, false);
    // Each NodeManager's shuffle server needs its own port.
    conf.setInt("mapreduce.shuffle.port", 0);

    containerSizes(conf, nodeManagerMemoryMb);
    java17OnOlderHadoop(conf);
    fastPolling(conf);
    nodeManagerHousekeeping(conf);
    return conf;
  }

  private static void containerSizes(Configuration conf, int nodeManagerMemoryMb) {
    // MiniYARNCluster overwrites yarn.nodemanager.resource.memory-mb with this one.
    conf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, nodeManagerMemoryMb);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, nodeManagerMemoryMb);
    // Stock 10% of a few GB is less than one AM; concurrent jobs (bench) would queue behind each
    // other.
    conf.setFloat("yarn.scheduler.capacity.maximum-am-resource-percent", 0.5f);
    conf.setInt(MRJobConfig.MR_AM_VMEM_MB, AM_MEMORY_MB);
    conf.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx384m " + TASK_JVM_FLAGS);
    conf.setInt(MRJobConfig.MAP_MEMORY_MB, TASK_MEMORY_MB);
    conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, TASK_MEMORY_MB);
    conf.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx288m " + TASK_JVM_FLAGS);
    conf.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx288m " + TASK_JVM_FLAGS);
    // The containers' real footprint is not what is being tested; a monitor kill would only add
    // noise.
    conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
  }

  /**
   * Hadoop 3.3's ApplicationMaster builds its web app with Guice 4, whose cglib needs java.lang
   * opened on Java 17 (ExceptionInInitializerError at start otherwise); 3.4 and later need nothing.
   * A requirement of stock Hadoop 3.3 on Java 17, stated in the README's Versions table, so it goes
   * where an operator would put it: the admin options, which job settings keep.
   */
  private static void java17OnOlderHadoop(Configuration conf) {
    if (!VersionInfo.getVersion().startsWith("3.3.")) {
      return;
    }
    String opens = " --add-opens=java.base/java.lang=ALL-UNNAMED";
    for (String key :
        new String[] {
          MRJobConfig.MR_AM_ADMIN_COMMAND_OPTS,
          MRJobConfig.MAPRED_MAP_ADMIN_JAVA_OPTS,
          MRJobConfig.MAPRED_REDUCE_ADMIN_JAVA_OPTS
        }) {
      // Unset, each key starts from the tasks' stock admin options (the AM's own default is
      // empty; these only add IPv4 and a quieter metrics log to it).
      conf.set(key, conf.get(key, MRJobConfig.DEFAULT_MAPRED_ADMIN_JAVA_OPTS.trim()) + opens);
    }
  }

  private static void fastPolling(Configuration conf) {
    conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, CLIENT_POLL_MS);
    conf.setInt(Job.PROGRESS_MONITOR_POLL_INTERVAL_KEY, CLIENT_POLL_MS);
    conf.setInt(MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, 300);
    // Containers are handed out on NodeManager heartbeats.
    conf.setLong(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 300);
  }

  private static void nodeManagerHousekeeping(Configuration conf) {
    // A developer disk is often more than 90% full; stock would mark every NodeManager unhealthy.
    conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 99.5f);
    conf.setLong(YarnConfiguration.NM_MIN_PER_DISK_FREE_SPACE_MB, 0);
    // With log retention on, stopping a NodeManager waits ~30 s; the debug delay keeps the logs on
    // disk anyway.
    conf.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 0);
    conf.setInt(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, 3600);
    // Containers start "$JAVA_HOME/bin/java"; a JVM launched without JAVA_HOME (IDE, plain java
    // -cp) has none
    // to pass on. Admin env is forced into every container, so they all run the JVM the cluster
    // runs on.
    conf.set(
        YarnConfiguration.NM_ADMIN_USER_ENV,
        YarnConfiguration.DEFAULT_NM_ADMIN_USER_ENV
            + ",JAVA_HOME="
            + System.getProperty("java.home"));
  }
}
