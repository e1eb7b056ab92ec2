package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeCounters.Counter;
import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.config.SpongeConf;
import java.io.IOException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputCollector;
import org.apache.hadoop.mapred.MapTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The map output collector whose spills go to SpongeFiles: a map whose output outgrows {@code
 * mapreduce.task.io.sort.mb} writes its sorted runs into SpongeFiles instead of local spill files
 * and merges them into file.out in one round (see {@link SpongeMapOutputBuffer}). file.out and its
 * index stay where {@code MapOutputFile} puts them, so the ShuffleHandler and any reduce side read
 * them unchanged. Switch it on per job or cluster-wide with
 *
 * <pre>mapreduce.job.map.output.collector.class = dev.levee.sponge.hadoop.SpongeMapOutputCollector
 * </pre>
 *
 * When the node has no usable sponge (no server answering, pool not attachable, encrypted
 * intermediate data) the map runs Hadoop's own {@code MapTask.MapOutputBuffer}, says so once in its
 * log and counts {@code map.fallbacks}; with {@code levee.sponge.map.fallback=fail} the attempt
 * fails instead.
 */
public class SpongeMapOutputCollector<K, V> implements MapOutputCollector<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeMapOutputCollector.class);

  /** The value of {@code mapreduce.job.map.output.collector.class} that switches it on. */
  public static final String COLLECTOR_CLASS = "dev.levee.sponge.hadoop.SpongeMapOutputCollector";

  private MapOutputCollector<K, V> delegate;
  private SpongeMapOutputBuffer<K, V> spongeBuffer;
  private SpongeFileSystem sponge;
  private TaskCounterPublisher counters;
  private boolean fellBack;

  @Override
  public void init(Context context) throws IOException, ClassNotFoundException {
    JobConf job = context.getJobConf();
    counters = new TaskCounterPublisher(context.getReporter());
    SpongeConf.validate(job);
    boolean failOnFallback =
        SpongeConf.MAP_FALLBACK.from(SpongeConf.source(job)) == SpongeConf.Fallback.FAIL;
    SpongeAttacher.Attachment attachment =
        SpongeAttacher.attach(job, context.getMapTask().getTaskID());
    if (!attachment.available()) {
      String reason = attachment.unavailableReason();
      if (failOnFallback) {
        throw new IOException(
            context.getMapTask().getTaskID()
                + ": SpongeFiles unavailable and "
                + SpongeConf.MAP_FALLBACK.name()
                + "=fail: "
                + reason);
      }
      fellBack = true;
      LOG.warn(
          "{}: SpongeFiles unavailable, map output spills to local disk as stock Hadoop does: {}",
          context.getMapTask().getTaskID(),
          reason);
      delegate = new MapTask.MapOutputBuffer<>();
      delegate.init(context);
      return;
    }
    sponge = attachment.fs();
    spongeBuffer = new SpongeMapOutputBuffer<>(sponge);
    delegate = spongeBuffer;
    try {
      delegate.init(context);
    } catch (IOException | ClassNotFoundException | RuntimeException e) {
      closeSponge();
      throw e;
    }
  }

  @Override
  public void collect(K key, V value, int partition) throws IOException, InterruptedException {
    delegate.collect(key, value, partition);
  }

  /**
   * Writes file.out, then publishes the counters: every SpongeFile has been read and freed by then.
   */
  @Override
  public void flush() throws IOException, InterruptedException, ClassNotFoundException {
    delegate.flush();
    counters.increment(Counter.MAP_FALLBACKS.counterName(), fellBack ? 1 : 0);
    if (spongeBuffer != null) {
      counters.publish(spongeBuffer.statistics());
      counters.publish(sponge.metrics().asMap());
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    try {
      if (delegate != null) {
        delegate.close();
      }
    } finally {
      closeSponge();
    }
  }

  private void closeSponge() {
    if (sponge != null) {
      try {
        sponge.close();
      } catch (IOException e) {
        LOG.warn("closing SpongeFiles failed; the node's sponge server reclaims what is left", e);
      }
      sponge = null;
    }
  }
}
