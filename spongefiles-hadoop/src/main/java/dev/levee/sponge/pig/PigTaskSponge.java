package dev.levee.sponge.pig;

import dev.levee.sponge.SpongeCounters.PigBag;
import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.hadoop.TaskSponge;
import java.io.IOException;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.PigMapReduce;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The spill space of the bags of this task JVM, found at the first spill the way a reduce task
 * finds its sponge ({@link TaskSponge}): the node descriptor the NodeManager's sponge aux service
 * wrote, the node's server probed, the shared pool attached, the tracker's list for remote memory.
 * A JVM with no usable sponge (no aux service on the node, server down, Pig's own front end) spills
 * to local files as stock Pig does, and says so once.
 *
 * <p>The first spill may come from Pig's memory manager thread, where Pig's thread-local job
 * configuration is not set; the task's configuration and attempt id are read from the static fields
 * Pig sets in every map and reduce task instead.
 */
final class PigTaskSponge {
  private static final Logger LOG = LoggerFactory.getLogger(PigTaskSponge.class);

  /** The one of this JVM: a YARN container runs one task attempt. */
  static final PigTaskSponge TASK =
      new PigTaskSponge(
          PigTaskSponge::pigTaskConf, PigTaskSponge::pigTaskAttempt, BagCounters.TASK);

  private final Supplier<Configuration> conf;
  private final Supplier<TaskAttemptID> attempt;
  private final BagCounters counters;
  private volatile BagSpillSpace space;
  private SpongeFileSystem fs;

  PigTaskSponge(
      Supplier<Configuration> conf, Supplier<TaskAttemptID> attempt, BagCounters counters) {
    this.conf = conf;
    this.attempt = attempt;
    this.counters = counters;
  }

  /** Where bags spill; attaches on the first call. */
  BagSpillSpace space() {
    BagSpillSpace s = space;
    if (s == null) {
      synchronized (this) {
        s = space;
        if (s == null) {
          s = attach();
          space = s;
        }
      }
    }
    return s;
  }

  private BagSpillSpace attach() {
    Configuration c = conf.get();
    TaskAttemptID id = attempt.get();
    if (c == null || id == null) {
      return fallBack(
          "not inside a MapReduce task (no task configuration or attempt id), e.g. Pig's front end");
    }
    TaskSponge sponge;
    try {
      SpongeConf.validate(c);
      sponge = TaskSponge.attach(c instanceof JobConf j ? j : new JobConf(c), id);
    } catch (RuntimeException e) {
      // An invalid value fails the task when its first bag is made (SpongeBagFactory); here, on
      // whatever thread spills first, the bags can only carry on as stock.
      return fallBack(id + ": " + e.getMessage());
    }
    if (sponge.fileSystem().isEmpty()) {
      return fallBack(id + ": " + sponge.unavailableReason());
    }
    fs = sponge.fileSystem().get();
    LOG.info("{}: Pig bags spill into SpongeFiles ({})", id, fs.config());
    Runtime.getRuntime().addShutdownHook(new Thread(this::close, "levee-sponge-pig-bags-close"));
    return BagSpillSpace.sponge(fs, counters);
  }

  private BagSpillSpace fallBack(String reason) {
    LOG.warn(
        "SpongeFiles unavailable, Pig bags spill to local files as stock Pig does: {}", reason);
    counters.add(PigBag.FALLBACKS.counterName(), 1);
    return BagSpillSpace.localFiles(counters);
  }

  /** Deletes what the bags left and detaches the pool; the JVM is exiting. */
  synchronized void close() {
    if (fs != null) {
      try {
        fs.close();
      } catch (IOException e) {
        LOG.warn(
            "closing the Pig bags' SpongeFiles failed; the node's sponge server reclaims them", e);
      }
      fs = null;
    }
  }

  private static Configuration pigTaskConf() {
    return PigMapReduce.sJobConf;
  }

  private static TaskAttemptID pigTaskAttempt() {
    JobContext context = PigMapReduce.sJobContext;
    return context instanceof TaskAttemptContext t ? t.getTaskAttemptID() : null;
  }
}
