package dev.levee.bench.hadoop.median;

import dev.levee.it.hadoop.MiniClusterSettings;
import dev.levee.sponge.hadoop.SpongeShuffle;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * The ways the Median job runs: stock Hadoop's shuffle with its defaults, stock as an operator
 * tunes it for a reducer that spills, and the same job with SpongeFiles switched on.
 */
public final class MedianVariants {
  /**
   * Stock's 70% lets five fetchers' in-flight copies plus the merge overrun a heap this small
   * (OutOfMemoryError in the fetcher, seen at 32 MB); an operator with small reducers lowers it, so
   * both variants run with 50%.
   */
  public static final float SMALL_HEAP_SHUFFLE_BUFFER = 0.5f;

  static final int TUNED_SORT_FACTOR = 100;

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

  /**
   * What a Hadoop operator tries first for a reducer that spills, at the same heap: merge every
   * on-disk run in one pass ({@code io.sort.factor} 100), start merging later ({@code
   * shuffle.merge.percent} 0.9, no segment-count trigger), and compress map output with Snappy
   * (snappy-java, on Hadoop's classpath since 3.3), so that fewer bytes are fetched, spilled and
   * merged. The shuffle buffer stays at {@link #SMALL_HEAP_SHUFFLE_BUFFER}: raising it is what
   * makes a small reducer fail. {@code reduce.input.buffer.percent} stays at stock's 0: with the
   * usual 0.7 (keep map outputs for the reducer instead of merging them to disk first) the
   * full-size job's 24 MB reducer ran out of heap in its final merge, 4 attempts of 4, so an
   * operator would take it back.
   */
  public static Configuration stockTuned(Configuration stock) {
    Configuration tuned = new Configuration(stock);
    tuned.setInt(MRJobConfig.IO_SORT_FACTOR, TUNED_SORT_FACTOR);
    tuned.setFloat(MRJobConfig.SHUFFLE_MERGE_PERCENT, 0.9f);
    tuned.setInt(MRJobConfig.REDUCE_MERGE_INMEM_THRESHOLD, 0);
    tuned.setBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, true);
    tuned.setClass(
        MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, SnappyCodec.class, CompressionCodec.class);
    return tuned;
  }

  /** The settings {@link #stockTuned} changes, for the record of each run. */
  public static String tuning() {
    return "io.sort.factor="
        + TUNED_SORT_FACTOR
        + ", shuffle.merge.percent=0.9, merge.inmem.threshold=0, map output compressed (Snappy)";
  }

  /** {@code stock} with the SpongeFiles shuffle consumer; every other setting stays the same. */
  public static Configuration spongeFiles(Configuration stock) {
    Configuration sponge = new Configuration(stock);
    sponge.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, SpongeShuffle.PLUGIN_CLASS);
    return sponge;
  }
}
