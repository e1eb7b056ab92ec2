package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeCounters.Counter;
import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.discovery.GuardedServerList;
import java.io.IOException;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reduce-side shuffle with SpongeFiles as spill space: Hadoop's own fetchers and scheduler,
 * with a {@link SpongeMergeManager} in place of the stock merge manager. Switch it on per job or
 * cluster-wide with
 *
 * <pre>mapreduce.job.reduce.shuffle.consumer.plugin.class = dev.levee.sponge.hadoop.SpongeShuffle
 * </pre>
 *
 * When this node has no usable sponge (no server answering, pool not attachable, encrypted shuffle)
 * the task runs the stock merge manager instead, says so once in its log, and counts it in {@value
 * #FALLBACKS_COUNTER}.
 */
public class SpongeShuffle<K, V> extends Shuffle<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeShuffle.class);

  /**
   * The value of {@code mapreduce.job.reduce.shuffle.consumer.plugin.class} that switches it on.
   */
  public static final String PLUGIN_CLASS = "dev.levee.sponge.hadoop.SpongeShuffle";

  /**
   * Logged at INFO once the copy is over and every background spill has finished, right before the
   * final merge: the point where stock logs "finalMerge called". Tools time the merge and the
   * reduce from it.
   */
  public static final String FINAL_MERGE_LOG_MARKER = "final merge begins with";

  private TaskCounterPublisher counters;
  private SpongeFileSystem sponge;
  private GuardedServerList tracker;
  private MergeStatistics stats;
  private boolean fellBack;
  private long attachNanos;
  private long closeNanos;

  @Override
  protected MergeManager<K, V> createMergeManager(ShuffleConsumerPlugin.Context context) {
    counters = new TaskCounterPublisher(context.getReporter());
    // Every levee.sponge.* value is checked once here, so a typo fails (or warns) at task start.
    SpongeConf.validate(context.getJobConf());
    boolean failOnFallback =
        SpongeConf.SHUFFLE_FALLBACK.from(SpongeConf.source(context.getJobConf()))
            == SpongeConf.Fallback.FAIL;
    long attachStart = System.nanoTime();
    SpongeAttacher.Attachment attachment =
        SpongeAttacher.attach(context.getJobConf(), context.getReduceId());
    attachNanos = System.nanoTime() - attachStart;
    if (!attachment.available()) {
      if (failOnFallback) {
        throw new IllegalStateException(
            context.getReduceId()
                + ": SpongeFiles unavailable and "
                + SpongeConf.SHUFFLE_FALLBACK.name()
                + "=fail"
                + ": "
                + attachment.unavailableReason());
      }
      fellBack = true;
      LOG.warn(
          "{}: SpongeFiles unavailable, spilling this shuffle to local disk as stock Hadoop does: {}",
          context.getReduceId(),
          attachment.unavailableReason());
      return super.createMergeManager(context);
    }
    sponge = attachment.fs();
    tracker = attachment.tracker();
    stats = new MergeStatistics();
    LOG.info(
        "{}: spilling the shuffle into SpongeFiles ({}; attached in {} ms)",
        context.getReduceId(),
        sponge.config(),
        attachNanos / 1_000_000);
    return new SpongeMergeManager<K, V>(context, sponge, this, stats);
  }

  /**
   * Runs after the reducer has consumed the merge: the sponge files are drained. Closing
   * SpongeFiles first waits for the drained runs' background frees, so the published figures are
   * final ({@code chunks_freed} equals {@code chunks_written}).
   */
  @Override
  public void close() {
    try {
      closeSponge();
      if (counters != null) {
        counters.increment(Counter.SHUFFLE_FALLBACKS.counterName(), fellBack ? 1 : 0);
        counters.increment(Counter.SHUFFLE_ATTACH_NANOS.counterName(), attachNanos);
        counters.increment(Counter.SHUFFLE_CLOSE_NANOS.counterName(), closeNanos);
        if (tracker != null) {
          counters.increment(
              Counter.REMOTE_TRACKER_UNREACHABLE.counterName(),
              tracker.trackerUnreachable() ? 1 : 0);
        }
        if (stats != null) {
          counters.publish(stats.asMap());
        }
        if (sponge != null) {
          counters.publish(sponge.metrics().asMap());
        }
      }
    } finally {
      sponge = null;
      super.close();
    }
  }

  private void closeSponge() {
    if (sponge != null) {
      long start = System.nanoTime();
      try {
        sponge.close();
      } catch (IOException e) {
        LOG.warn("closing SpongeFiles failed; the node's sponge server reclaims what is left", e);
      } finally {
        closeNanos = System.nanoTime() - start;
      }
    }
  }
}
