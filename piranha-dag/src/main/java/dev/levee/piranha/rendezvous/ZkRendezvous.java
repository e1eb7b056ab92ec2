package dev.levee.piranha.rendezvous;

import dev.levee.piranha.AbortSignal;
import dev.levee.piranha.Deadline;
import dev.levee.piranha.PiranhaAbortedException;
import dev.levee.piranha.dag.TaskId;
import dev.levee.piranha.transport.Endpoint;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's view of its run in ZooKeeper ({@link ZkLayout}): it publishes its registration, waits
 * (bounded) for the registrations of the children it pushes to, records when it is done, and raises
 * or hears the run's abort. One {@link CuratorCache} over the attempt's znodes delivers every
 * change as a watch event, so an abort raised anywhere reaches every task within a ZooKeeper round
 * trip, and no task polls.
 *
 * <p>The run is aborted here when: the abort znode appears; this task's session is LOST (its
 * registration is gone, so peers could no longer trust what it publishes); or a peer's registration
 * vanishes before that peer recorded it was done (its process or session died). SUSPENDED only
 * waits: the session may well survive a leader election.
 */
public final class ZkRendezvous implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ZkRendezvous.class);

  /** How long raising an abort waits for ZooKeeper before the task stops anyway. */
  static final long RAISE_WAIT_MS = 2_000;

  private final CuratorFramework client;
  private final ZkLayout layout;
  private final TaskId self;
  private final AbortSignal abort;
  private final CuratorCache cache;
  private final Map<TaskId, Registration> registered = new HashMap<>();
  private final Set<TaskId> done = new HashSet<>();
  private volatile boolean closing;

  private ZkRendezvous(CuratorFramework client, ZkLayout layout, TaskId self, AbortSignal abort) {
    this.client = client;
    this.layout = layout;
    this.self = self;
    this.abort = abort;
    this.cache = CuratorCache.build(client, layout.attempt());
  }

  /**
   * Joins an attempt the runner created; the client is owned (closed) by the rendezvous from here
   * on.
   */
  public static ZkRendezvous join(
      CuratorFramework client, ZkLayout layout, TaskId self, AbortSignal abort) throws IOException {
    ZkRendezvous r = new ZkRendezvous(client, layout, self, abort);
    try {
      r.start();
      return r;
    } catch (IOException | RuntimeException e) {
      r.close();
      throw e;
    }
  }

  private void start() throws IOException {
    try {
      if (client.checkExists().forPath(layout.tasks()) == null) {
        throw new IOException(
            "attempt "
                + layout.attempt()
                + " does not exist in ZooKeeper: the runner created no such attempt, or already"
                + " ended it");
      }
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("cannot read " + layout.attempt() + " in ZooKeeper: " + e, e);
    }
    client
        .getConnectionStateListenable()
        .addListener(
            (c, state) -> {
              if (state == ConnectionState.LOST && !closing) {
                abort.abort("the ZooKeeper session of task " + self + " was lost");
              } else if (state == ConnectionState.SUSPENDED) {
                LOG.warn("task {}: ZooKeeper connection suspended; waiting for it", self);
              } else if (state == ConnectionState.RECONNECTED) {
                LOG.info("task {}: ZooKeeper connection back", self);
              }
            });
    cache
        .listenable()
        .addListener(
            CuratorCacheListener.builder()
                .forCreatesAndChanges((before, after) -> seen(after))
                .forDeletes(this::gone)
                .build());
    cache.start();
  }

  /** Publishes this task's registration; a second copy of the same task fails here. */
  public void register(Registration r) throws IOException {
    try {
      client.create().withMode(CreateMode.EPHEMERAL).forPath(layout.task(self), r.encode());
    } catch (KeeperException.NodeExistsException e) {
      throw new IOException(
          "task "
              + self
              + " is already registered in "
              + layout.attempt()
              + ": another copy of it is running (speculation or a retry?)");
    } catch (Exception e) {
      throw new IOException("cannot register task " + self + " in ZooKeeper: " + e, e);
    }
  }

  /**
   * Waits until every task in {@code tasks} has registered, calling {@code tick} between checks.
   */
  public Map<TaskId, Endpoint> awaitEndpoints(
      Collection<TaskId> tasks, Deadline deadline, Runnable tick)
      throws PiranhaAbortedException, InterruptedException {
    while (true) {
      abort.check();
      synchronized (this) {
        Map<TaskId, Endpoint> found = new TreeMap<>();
        Set<TaskId> missing = new TreeSet<>();
        for (TaskId t : tasks) {
          Registration r = registered.get(t);
          if (r == null || r.endpoint() == null) {
            missing.add(t);
          } else {
            found.put(t, r.endpoint());
          }
        }
        if (missing.isEmpty()) {
          return found;
        }
        if (deadline.passed()) {
          throw new PiranhaAbortedException(
              deadline.expiredMessage()
                  + "; still missing: "
                  + missing
                  + " (the cluster may not have started them: YARN does not gang-schedule)");
        }
        wait(Math.min(200, Math.max(1, deadline.remainingMillis())));
      }
      tick.run();
    }
  }

  /** The registration of a task, if seen. */
  public synchronized Registration registration(TaskId t) {
    return registered.get(t);
  }

  /** Records this task as done, with its timeline; from now on its vanishing is expected. */
  public void markDone(String report) throws IOException {
    try {
      client
          .create()
          .withMode(CreateMode.PERSISTENT)
          .forPath(layout.done(self), report.getBytes(StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw new IOException("cannot record task " + self + " as done in ZooKeeper: " + e, e);
    }
  }

  /**
   * Raises the run's abort (the first reason wins) and then aborts locally.
   *
   * <p>The order matters: aborting locally closes this task's sockets, and a peer that sees its
   * stream to this task close raises an abort of its own ("X closed the connection"). Writing the
   * znode first means this task's reason, the root cause, is already there when that secondary one
   * arrives, so the runner reports why the attempt failed rather than who noticed first. The write
   * waits at most {@link #RAISE_WAIT_MS}: a task whose ZooKeeper is unreachable still stops at once
   * (its peers then learn of it from its vanished registration).
   */
  public void raiseAbort(String reason) {
    if (!abort.aborted()) {
      CountDownLatch written = new CountDownLatch(1);
      try {
        client
            .create()
            .withMode(CreateMode.PERSISTENT)
            .inBackground(
                (c, event) -> {
                  if (event.getResultCode() != KeeperException.Code.OK.intValue()
                      && event.getResultCode() != KeeperException.Code.NODEEXISTS.intValue()) {
                    LOG.warn(
                        "task {} could not raise the run's abort in ZooKeeper: {}",
                        self,
                        KeeperException.Code.get(event.getResultCode()));
                  }
                  written.countDown();
                })
            .forPath(layout.abort(), (self + ": " + reason).getBytes(StandardCharsets.UTF_8));
        if (!written.await(RAISE_WAIT_MS, TimeUnit.MILLISECONDS)) {
          LOG.warn("task {}: ZooKeeper did not take the abort within {} ms", self, RAISE_WAIT_MS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        LOG.warn("task {} could not raise the run's abort in ZooKeeper: {}", self, e.toString());
      }
    }
    abort.abort(reason);
  }

  /** Stops listening at once; the session ends shortly after, without this task waiting. */
  @Override
  public void close() {
    closing = true;
    try {
      cache.close();
    } finally {
      ZkClients.closeInBackground(client);
    }
  }

  private void seen(ChildData node) {
    String path = node.getPath();
    if (path.equals(layout.abort())) {
      String why = node.getData() == null ? "" : new String(node.getData(), StandardCharsets.UTF_8);
      abort.abort("aborted by " + why);
      return;
    }
    TaskId t = layout.taskOf(path, layout.tasks());
    if (t != null && node.getData() != null) {
      try {
        Registration r = Registration.decode(node.getData());
        synchronized (this) {
          registered.put(t, r);
          notifyAll();
        }
      } catch (RuntimeException e) {
        abort.abort("task " + t + " published an unreadable registration: " + e.getMessage());
      }
      return;
    }
    TaskId d = layout.taskOf(path, layout.done());
    if (d != null) {
      synchronized (this) {
        done.add(d);
      }
    }
  }

  private void gone(ChildData node) {
    TaskId t = layout.taskOf(node.getPath(), layout.tasks());
    if (t == null || t.equals(self) || closing || abort.aborted()) {
      return;
    }
    synchronized (this) {
      registered.remove(t);
      if (done.contains(t)) {
        return;
      }
    }
    // The cache may report a deletion before a creation it is still fetching: ask ZooKeeper.
    try {
      if (client.checkExists().forPath(layout.done(t)) != null) {
        return;
      }
    } catch (Exception e) {
      // Cannot tell; treat as vanished.
    }
    abort.abort(
        "task " + t + " vanished (its process or ZooKeeper session ended) before it finished");
  }
}
