package dev.levee.themis.reduce;

import dev.levee.config.ConfigSource;
import dev.levee.themis.ThemisConf;
import dev.levee.themis.ThemisCounters;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Themis's reduce side: Hadoop's own shuffle (event fetcher, fetchers, retries, fetch-failure
 * reports that make the AM rerun a lost map, the local fetcher in uber and local mode), with a
 * merge manager that holds the whole partition in memory and sorts it once. Switch it on with
 *
 * <pre>mapreduce.job.reduce.shuffle.consumer.plugin.class = dev.levee.themis.reduce.ThemisShuffle
 * </pre>
 *
 * It reads sorted and unsorted map outputs alike, so it also works behind the stock collector.
 */
public class ThemisShuffle<K, V> extends Shuffle<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(ThemisShuffle.class);

  private ShuffleConsumerPlugin.Context context;
  private ThemisMergeManager<K, V> manager;
  private final ReduceStats stats = new ReduceStats();
  private long localBytesBefore;

  @Override
  protected MergeManager<K, V> createMergeManager(ShuffleConsumerPlugin.Context context) {
    this.context = context;
    localBytesBefore = ThemisCounters.localBytesWritten();
    ConfigSource conf = ThemisConf.validate(context.getJobConf(), LOG);
    ReduceSettings settings = ReduceSettings.from(conf, Runtime.getRuntime().maxMemory());
    LOG.info(
        "{}: Themis shuffle holds the partition in {} bytes, sorts it once, overflow {}",
        context.getReduceId(),
        settings.budget(),
        settings.overflow());
    try {
      manager = new ThemisMergeManager<>(context, settings, this, stats);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return manager;
  }

  /** Runs after the reducer consumed the partition: the figures are final. */
  @Override
  public void close() {
    try {
      if (context != null) {
        stats.publish(context.getReporter());
        ThemisCounters.increment(
            context.getReporter(), ThemisCounters.TASK_LOCAL_BYTES_BEFORE, localBytesBefore);
      }
    } finally {
      if (manager != null) {
        manager.deleteRuns();
      }
      super.close();
    }
  }
}
