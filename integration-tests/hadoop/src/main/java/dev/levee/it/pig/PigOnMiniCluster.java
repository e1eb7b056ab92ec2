package dev.levee.it.pig;

import dev.levee.it.hadoop.MiniClusterSettings;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.ExecType;
import org.apache.pig.PigConfiguration;
import org.apache.pig.PigServer;
import org.apache.pig.backend.executionengine.ExecException;
import org.apache.pig.backend.hadoop.datastorage.ConfigurationUtil;

/**
 * A {@link PigServer} in MapReduce mode whose jobs run on a {@link MiniMapReduceCluster}.
 *
 * <p>Pig 0.18's published jar needs {@code org.apache.pig.org.roaringbitmap}, provided by the
 * packaged {@code dev.levee:pig-roaringbitmap} module on this module's classpath; without it job
 * submission dies with NoClassDefFoundError.
 */
public final class PigOnMiniCluster {

  /**
   * Pig otherwise rebuilds its Hadoop configuration from *-site.xml files on the classpath, and a
   * mini cluster has none: its addresses exist only in the cluster's Configuration.
   */
  public static final String USE_GIVEN_HADOOP_CONFIG = "pig.use.overriden.hadoop.configs";

  private PigOnMiniCluster() {}

  /** Pig properties for the cluster: its client configuration, plus {@code extra} on top. */
  public static Properties properties(MiniMapReduceCluster cluster, Properties extra) {
    Configuration conf = cluster.clientConf();
    Properties properties = ConfigurationUtil.toProperties(conf);
    properties.setProperty(USE_GIVEN_HADOOP_CONFIG, "true");
    // Pig appends this GC flag to any task java.opts that are not exactly one -XX:+Use...GC flag
    // (it matches
    // the whole string), so its default, ParallelGC, would clash with the cluster's collector and
    // every task
    // JVM would die with "Multiple garbage collectors selected".
    properties.setProperty(PigConfiguration.PIG_GC_PARAMS, MiniClusterSettings.TASK_GC_FLAG);
    properties.putAll(extra);
    return properties;
  }

  public static PigServer start(MiniMapReduceCluster cluster) throws ExecException {
    return start(cluster, new Properties());
  }

  public static PigServer start(MiniMapReduceCluster cluster, Properties extra)
      throws ExecException {
    return new PigServer(ExecType.MAPREDUCE, properties(cluster, extra));
  }
}
