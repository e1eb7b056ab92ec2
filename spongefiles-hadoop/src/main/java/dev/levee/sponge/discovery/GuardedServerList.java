package dev.levee.sponge.discovery;

import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tracker's list behind a one-strike breaker: the first time the list cannot be had (ZooKeeper
 * unreachable, the read timed out), remote memory is off for the rest of this client's life and
 * every later file goes straight to local memory and disk. One bounded wait per task, one log line
 * and one counter, instead of a wait, a warning and a stack trace for every file a task creates.
 *
 * <p>Calls are serialized so that fetchers creating files at the same moment share one wait for an
 * unreachable tracker instead of each paying their own; with the tracker up, a read takes a
 * millisecond and a task creates few files.
 */
public final class GuardedServerList implements ServerListSource {
  private static final Logger LOG = LoggerFactory.getLogger(GuardedServerList.class);

  private final ServerListSource tracker;
  private final String trackerName;
  private volatile String unreachable;

  /**
   * @param tracker where the list is read
   * @param trackerName how log lines name the tracker (its ZooKeeper quorum and znode)
   */
  public GuardedServerList(ServerListSource tracker, String trackerName) {
    this.tracker = tracker;
    this.trackerName = trackerName;
  }

  @Override
  public synchronized List<ServerListEntry> serversWithFreeChunks() {
    if (unreachable != null) {
      return List.of();
    }
    try {
      return tracker.serversWithFreeChunks();
    } catch (IOException | RuntimeException e) {
      trip(e.toString());
      return List.of();
    }
  }

  /** Whether remote memory was given up because the tracker could not be reached. */
  public boolean trackerUnreachable() {
    return unreachable != null;
  }

  private void trip(String reason) {
    unreachable = reason;
    LOG.warn(
        "remote memory is off for the rest of this task: the sponge tracker {} could not be"
            + " reached ({}); spills go to local memory and disk",
        trackerName,
        reason);
  }
}
