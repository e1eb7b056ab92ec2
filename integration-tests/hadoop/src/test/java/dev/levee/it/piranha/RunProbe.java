package dev.levee.it.piranha;

import dev.levee.piranha.rendezvous.Registration;
import java.io.Closeable;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;

/**
 * A test's look at a Piranha run in ZooKeeper (with its own Curator client): which tasks of an
 * attempt have registered, and their pids. Each test uses its own znode root, so the only run under
 * it is the test's.
 */
final class RunProbe implements Closeable {
  private final CuratorFramework zk;
  private final String root;

  RunProbe(String connect, String root) throws InterruptedException {
    this.root = root;
    this.zk = CuratorFrameworkFactory.newClient(connect, 30_000, 10_000, new RetryNTimes(50, 200));
    zk.start();
    if (!zk.blockUntilConnected(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("no ZooKeeper at " + connect);
    }
  }

  /** Waits until {@code task} of {@code attempt} registered, and returns its registration. */
  Registration awaitTask(int attempt, String task, long timeoutMs) throws Exception {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (System.currentTimeMillis() < deadline) {
      String run = onlyRun();
      if (run != null) {
        String path = root + "/" + run + "/attempt-" + attempt + "/tasks/" + task;
        if (zk.checkExists().forPath(path) != null) {
          return Registration.decode(zk.getData().forPath(path));
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError(
        task + " of attempt " + attempt + " did not register in " + timeoutMs + " ms");
  }

  /** Waits until {@code n} tasks of {@code attempt} registered. */
  void awaitRegistered(int attempt, int n, long timeoutMs) throws Exception {
    long deadline = System.currentTimeMillis() + timeoutMs;
    int seen = 0;
    while (System.currentTimeMillis() < deadline) {
      String run = onlyRun();
      if (run != null) {
        String path = root + "/" + run + "/attempt-" + attempt + "/tasks";
        if (zk.checkExists().forPath(path) != null) {
          seen = zk.getChildren().forPath(path).size();
          if (seen >= n) {
            return;
          }
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError(seen + " of " + n + " tasks registered in attempt " + attempt);
  }

  /** Runs left under the root (the runner deletes its run when it ends). */
  List<String> runs() throws Exception {
    return zk.checkExists().forPath(root) == null ? List.of() : zk.getChildren().forPath(root);
  }

  /** The id of the only run under the root (the znode the runner created for it). */
  String runId() throws Exception {
    String run = onlyRun();
    if (run == null) {
      throw new AssertionError("no run under " + root);
    }
    return run;
  }

  private String onlyRun() throws Exception {
    List<String> runs = runs();
    if (runs.size() > 1) {
      throw new AssertionError("more than one run under " + root + ": " + runs);
    }
    return runs.isEmpty() ? null : runs.get(0);
  }

  @Override
  public void close() {
    zk.close();
  }
}
