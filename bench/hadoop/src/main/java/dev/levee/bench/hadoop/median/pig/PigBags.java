package dev.levee.bench.hadoop.median.pig;

import dev.levee.sponge.pig.SpongeBagFactory;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.pig.backend.hadoop.datastorage.ConfigurationUtil;

/**
 * The Pig properties of one arm, from that arm's job configuration: stock keeps Pig's own bag
 * factory and internal cached bags; SpongeFiles adds exactly the lines the module's README gives a
 * user (the factory for the task JVMs, factory-made bags for every operator).
 */
public final class PigBags {
  /**
   * Pig's default share of the heap a cached bag may hold before it spills; set explicitly so both
   * arms spill at the same point.
   */
  public static final String MEMUSAGE = "pig.cachedbag.memusage";

  private PigBags() {}

  /** Stock Pig's bags with {@code jobConf}'s Hadoop settings. */
  public static Properties stock(Configuration jobConf, String memusage) {
    Properties p = ConfigurationUtil.toProperties(jobConf);
    p.setProperty(MEMUSAGE, memusage);
    return p;
  }

  /** As {@link #stock}, with Pig's bags spilling into SpongeFiles. */
  public static Properties spongeFiles(Configuration jobConf, String memusage) {
    Properties p = stock(jobConf, memusage);
    String factory = factoryOptions();
    for (String key : new String[] {MRJobConfig.MAP_JAVA_OPTS, MRJobConfig.REDUCE_JAVA_OPTS}) {
      p.setProperty(key, jobConf.get(key, "").trim() + factory);
    }
    p.setProperty("pig.cachedbag.type", "default");
    p.setProperty("pig.cachedbag.sort.type", "default");
    p.setProperty("pig.cachedbag.distinct.type", "default");
    return p;
  }

  /**
   * The two system properties Pig 0.18 picks its factory from, naming the plugin's jar on this
   * machine (every node of the mini cluster is this machine, as an installed jar is on every node).
   */
  static String factoryOptions() {
    String jar =
        SpongeBagFactory.class.getProtectionDomain().getCodeSource().getLocation().toString();
    return " -Dpig.data.bag.factory.name="
        + SpongeBagFactory.class.getName()
        + " -Dpig.data.bag.factory.jar="
        + jar;
  }
}
