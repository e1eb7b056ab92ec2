package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.discovery.GuardedServerList;
import java.util.Optional;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.TaskAttemptID;

/**
 * This task's sponge as other integrations than the reduce-side shuffle see it (Pig's bags): found
 * exactly as a reduce task finds it (the NodeManager's node descriptor, the node's server probed,
 * the pool attached, the tracker's list for remote memory), or the reason there is none, so the
 * caller can fall back to its stock spill.
 */
public final class TaskSponge {
  private final SpongeFileSystem fs;
  private final String unavailableReason;
  private final GuardedServerList tracker;

  private TaskSponge(SpongeFileSystem fs, String unavailableReason, GuardedServerList tracker) {
    this.fs = fs;
    this.unavailableReason = unavailableReason;
    this.tracker = tracker;
  }

  /**
   * Attaches {@code taskId}'s node sponge. Never throws for an unreachable or missing sponge (see
   * {@link #unavailableReason()}); throws {@link IllegalArgumentException} for an invalid {@code
   * levee.sponge.*} value, which must not pass silently.
   */
  public static TaskSponge attach(JobConf job, TaskAttemptID taskId) {
    SpongeAttacher.Attachment a = SpongeAttacher.attach(job, taskId);
    return new TaskSponge(a.fs(), a.unavailableReason(), a.tracker());
  }

  /** The attached file system; the caller owns it and closes it at task end. */
  public Optional<SpongeFileSystem> fileSystem() {
    return Optional.ofNullable(fs);
  }

  /** Why there is no sponge for this task; null when there is one. */
  public String unavailableReason() {
    return unavailableReason;
  }

  /** Whether the task gave up remote memory because the tracker could not be reached. */
  public boolean trackerUnreachable() {
    return tracker != null && tracker.trackerUnreachable();
  }
}
