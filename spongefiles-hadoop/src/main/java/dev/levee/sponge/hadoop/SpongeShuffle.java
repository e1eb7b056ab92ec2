package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeFileSystem;
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

  private TaskCounterPublisher counters;
  private SpongeFileSystem sponge;
  private MergeStatistics stats;
  private boolean fellBack;

  @Override
  protected MergeManager<K, V> createMergeManager(ShuffleConsumerPlugin.Context context) {
    counters = new TaskCounterPublisher(context.getReporter());
    NodeSponge.Attachment attachment =
        NodeSponge.attach(context.getJobConf(), context.getReduceId());
    if (!attachment.available()) {
      fellBack = true;
      LOG.warn(
          "{}: SpongeFiles unavailable, spilling this shuffle to local disk as stock Hadoop does: {}",
          context.getReduceId(),
          attachment.unavailableReason());
      return super.createMergeManager(context);
    }
    sponge = attachment.fs();
    stats = new MergeStatistics();
    LOG.info(
        "{}: spilling the shuffle into SpongeFiles ({})", context.getReduceId(), sponge.config());
    return new SpongeMergeManager<K, V>(context, sponge, this, stats);
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
