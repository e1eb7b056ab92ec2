package dev.levee.bench.hadoop.median;

import dev.levee.it.hadoop.MiniClusterSettings;
import dev.levee.sponge.hadoop.SpongeShuffle;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * The two ways the Median job runs: stock Hadoop's shuffle, and the same job with SpongeFiles
 * switched on.
 */
public final class MedianVariants {
  /**
   * Stock's 70% lets five fetchers' in-flight copies plus the merge overrun a heap this small
   * (OutOfMemoryError in the fetcher, seen at 32 MB); an operator with small reducers lowers it, so
   * both variants run with 50%.
   */
  public static final float SMALL_HEAP_SHUFFLE_BUFFER = 0.5f;

  private MedianVariants() {}

  /** Stock, with a reducer of {@code reduceHeapMb} heap and the small-heap shuffle buffer. */
  public static Configuration stock(Configuration base, int reduceHeapMb) {
    Configuration stock = new Configuration(base);
    stock.set(
        MRJobConfig.REDUCE_JAVA_OPTS,
        "-Xmx" + reduceHeapMb + "m " + MiniClusterSettings.TASK_JVM_FLAGS);
    stock.setFloat(MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT, SMALL_HEAP_SHUFFLE_BUFFER);
    return stock;
  }

  /** {@code stock} with the SpongeFiles shuffle consumer; every other setting stays the same. */
  public static Configuration spongeFiles(Configuration stock) {
    Configuration sponge = new Configuration(stock);
    sponge.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, SpongeShuffle.PLUGIN_CLASS);
    return sponge;
  }
}
