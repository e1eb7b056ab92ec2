package dev.levee.piranha.rendezvous;

import dev.levee.piranha.dag.TaskId;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * The runner's side of a run in ZooKeeper: it creates each attempt's znodes before submitting,
 * watches who registered and whether anyone aborted, reads the tasks' timelines after a success,
 * and deletes the run when it ends.
 */
public final class ZkRunTracker implements Closeable {
  private final CuratorFramework client;
  private final String root;
  private final String runId;

  public ZkRunTracker(CuratorFramework client, String root, String runId) {
    this.client = client;
    this.root = root;
    this.runId = runId;
  }

  public ZkLayout layout(int attempt) {
    return new ZkLayout(root, runId, attempt);
  }

  /** Creates attempt {@code k}'s znodes, in one transaction. */
  public void createAttempt(int attempt) throws IOException {
    ZkLayout l = layout(attempt);
    try {
      client.create().creatingParentContainersIfNeeded().forPath(l.run());
    } catch (KeeperException.NodeExistsException e) {
      // later attempts
    } catch (Exception e) {
      throw new IOException("cannot create the run's znode " + l.run() + ": " + e, e);
    }
    try {
      List<CuratorOp> ops =
          List.of(
              client.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(l.attempt()),
              client.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(l.tasks()),
              client.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(l.done()));
      client.transaction().forOperations(ops);
    } catch (Exception e) {
      throw new IOException("cannot create attempt znodes under " + l.run() + ": " + e, e);
    }
  }

  /** The abort reason of attempt {@code k}, or null. */
  public String abortReason(int attempt) {
    try {
      byte[] b = client.getData().forPath(layout(attempt).abort());
      return new String(b, StandardCharsets.UTF_8);
    } catch (Exception e) {
      return null;
    }
  }

  /** Tasks that registered or finished in attempt {@code k}. */
  public Set<TaskId> started(int attempt) throws IOException {
    ZkLayout l = layout(attempt);
    Set<TaskId> s = new HashSet<>();
    try {
      for (String c : client.getChildren().forPath(l.tasks())) {
        s.add(TaskId.parse(c));
      }
      for (String c : client.getChildren().forPath(l.done())) {
        s.add(TaskId.parse(c));
      }
    } catch (Exception e) {
      throw new IOException("cannot list the tasks of " + l.attempt() + ": " + e, e);
    }
    return s;
  }

  /** The registrations of attempt {@code k} (for operators and fault tests: pids, endpoints). */
  public Map<TaskId, Registration> registrations(int attempt) throws IOException {
    ZkLayout l = layout(attempt);
    Map<TaskId, Registration> m = new TreeMap<>();
    try {
      for (String c : client.getChildren().forPath(l.tasks())) {
        try {
          m.put(
              TaskId.parse(c), Registration.decode(client.getData().forPath(l.tasks() + "/" + c)));
        } catch (KeeperException.NoNodeException gone) {
          // finished meanwhile
        }
      }
    } catch (Exception e) {
      throw new IOException("cannot read the registrations of " + l.attempt() + ": " + e, e);
    }
    return m;
  }

  /** Each finished task's timeline text, by task. */
  public Map<TaskId, String> doneReports(int attempt) throws IOException {
    ZkLayout l = layout(attempt);
    Map<TaskId, String> m = new TreeMap<>();
    try {
      for (String c : client.getChildren().forPath(l.done())) {
        m.put(
            TaskId.parse(c),
            new String(client.getData().forPath(l.done() + "/" + c), StandardCharsets.UTF_8));
      }
    } catch (Exception e) {
      throw new IOException("cannot read the timelines of " + l.attempt() + ": " + e, e);
    }
    return m;
  }

  /** Deletes the run's znodes, retrying in the background if ZooKeeper is unreachable now. */
  public void deleteRun() {
    try {
      client
          .delete()
          .guaranteed()
          .deletingChildrenIfNeeded()
          .forPath(new ZkLayout(root, runId, 1).run());
    } catch (KeeperException.NoNodeException e) {
      // already gone
    } catch (Exception e) {
      // guaranteed(): Curator keeps retrying while this client lives
    }
  }

  /** Ends the runner's session without waiting for the client's own clean-up. */
  @Override
  public void close() {
    ZkClients.closeInBackground(client);
  }
}
