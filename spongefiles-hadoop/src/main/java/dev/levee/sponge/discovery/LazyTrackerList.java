package dev.levee.sponge.discovery;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;

/**
 * The tracker's published list through a ZooKeeper session opened at the first read, not before.
 * Only a task that places a chunk outside its node's own pool reads the list, so a task that never
 * spills, or whose node holds all it spills, never connects: its start and its end pay no session
 * set-up and close (about 0.25 s at the start and 0.11 s at the end of a reduce task, measured with
 * the shuffle's attach and close counters on the mini-cluster bench before this class existed).
 *
 * <p>The first read waits at most {@code connectTimeoutMillis} for the session and otherwise
 * throws, which {@link GuardedServerList} turns into "remote memory off for this task": the same
 * single bounded wait as connecting at task start, paid only by a task that needs the tracker.
 */
public final class LazyTrackerList implements ServerListSource, AutoCloseable {
  private final Supplier<CuratorFramework> sessions;
  private final SpongeZnodes znodes;
  private final int connectTimeoutMillis;
  private CuratorFramework session;
  private PublishedServerList list;
  private boolean closed;

  /**
   * @param sessions makes the (unstarted) ZooKeeper client, called at most once
   */
  public LazyTrackerList(
      Supplier<CuratorFramework> sessions, SpongeZnodes znodes, int connectTimeoutMillis) {
    this.sessions = Objects.requireNonNull(sessions, "sessions");
    this.znodes = Objects.requireNonNull(znodes, "znodes");
    this.connectTimeoutMillis = connectTimeoutMillis;
  }

  @Override
  public synchronized List<ServerListEntry> serversWithFreeChunks() throws IOException {
    if (closed) {
      throw new IOException("the sponge tracker's list was closed with its task's sponge");
    }
    if (list == null) {
      connect();
    }
    return list.serversWithFreeChunks();
  }

  /** Whether a session was ever opened: false for a task that never read the list. */
  public synchronized boolean connected() {
    return session != null;
  }

  private void connect() throws IOException {
    CuratorFramework zk = sessions.get();
    zk.start();
    boolean up;
    try {
      up = zk.blockUntilConnected(connectTimeoutMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      zk.close();
      throw new InterruptedIOException("interrupted while connecting to ZooKeeper");
    }
    if (!up) {
      // Not kept retrying in the background: the guard has given remote memory up for good.
      zk.close();
      throw new IOException("no ZooKeeper connection within " + connectTimeoutMillis + " ms");
    }
    session = zk;
    list = new PublishedServerList(zk, znodes);
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (session != null) {
      session.close();
    }
  }
}
