package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.remote.net.GuardedServerList;
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
   * Counter (in {@value SpongeShuffleKeys#COUNTER_GROUP}): 1 when this task ran the stock merge
   * instead.
   */
  public static final String FALLBACKS_COUNTER = "shuffle.fallbacks";

  /**
   * Counter: 1 when this task gave up remote memory because the sponge tracker (ZooKeeper) could
   * not be reached; local memory and disk served its spills.
   */
  public static final String TRACKER_UNREACHABLE_COUNTER = "remote.tracker_unreachable";

  private TaskCounterPublisher counters;
  private SpongeFileSystem sponge;
  private GuardedServerList tracker;
  private MergeStatistics stats;
  private boolean fellBack;

  @Override
  protected MergeManager<K, V> createMergeManager(ShuffleConsumerPlugin.Context context) {
    counters = new TaskCounterPublisher(context.getReporter());
    boolean failOnFallback = failInsteadOfFallingBack(context.getJobConf());
    NodeSponge.Attachment attachment =
        NodeSponge.attach(context.getJobConf(), context.getReduceId());
    if (!attachment.available()) {
      if (failOnFallback) {
        throw new IllegalStateException(
            context.getReduceId()
                + ": SpongeFiles unavailable and "
                + SpongeShuffleKeys.FALLBACK
                + "="
                + SpongeShuffleKeys.FALLBACK_FAIL
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
        "{}: spilling the shuffle into SpongeFiles ({})", context.getReduceId(), sponge.config());
    return new SpongeMergeManager<K, V>(context, sponge, this, stats);
  }

  private static boolean failInsteadOfFallingBack(org.apache.hadoop.mapred.JobConf job) {
    String policy = job.getTrimmed(SpongeShuffleKeys.FALLBACK, SpongeShuffleKeys.FALLBACK_DEFAULT);
    if (policy.equalsIgnoreCase(SpongeShuffleKeys.FALLBACK_FAIL)) {
      return true;
    }
    if (policy.equalsIgnoreCase(SpongeShuffleKeys.FALLBACK_STOCK)) {
      return false;
    }
    throw new IllegalArgumentException(
        "invalid "
            + SpongeShuffleKeys.FALLBACK
            + "='"
            + policy
            + "': expected "
            + SpongeShuffleKeys.FALLBACK_STOCK
            + " or "
            + SpongeShuffleKeys.FALLBACK_FAIL);
  }

  /**
   * Runs after the reducer has consumed the merge: the sponge files are drained, so the figures are
   * final.
   */
  @Override
  public void close() {
    try {
      if (counters != null) {
        counters.increment(FALLBACKS_COUNTER, fellBack ? 1 : 0);
        if (tracker != null) {
          counters.increment(TRACKER_UNREACHABLE_COUNTER, tracker.trackerUnreachable() ? 1 : 0);
        }
        if (stats != null) {
          counters.publish(stats.asMap());
        }
        if (sponge != null) {
          counters.publish(sponge.metrics().asMap());
        }
      }
    } finally {
      if (sponge != null) {
        try {
          sponge.close();
        } catch (IOException e) {
          LOG.warn("closing SpongeFiles failed; the node's sponge server reclaims what is left", e);
        }
        sponge = null;
      }
      super.close();
    }
  }
}
