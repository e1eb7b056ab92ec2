package dev.levee.containers.jobs;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Run in the client container: {@code RendezvousProbe <quorum> <root> <attempt> <tasks> <seconds>}
 * returns (exit 0) once the only Piranha run under {@code <root>} has {@code <tasks>} tasks of
 * {@code <attempt>} registered in ZooKeeper ({@code <root>/<run>/attempt-<k>/tasks}, as the runner
 * lays a run out), or exits 1 after {@code <seconds>}, printing what it saw last. With a gated scan
 * the tasks then all wait at their rendezvous: what a test acts on.
 */
public final class RendezvousProbe {
  private RendezvousProbe() {}

  public static void main(String[] args) throws Exception {
    String root = args[1];
    int attempt = Integer.parseInt(args[2]);
    int tasks = Integer.parseInt(args[3]);
    long deadline = System.nanoTime() + Long.parseLong(args[4]) * 1_000_000_000L;
    CountDownLatch connected = new CountDownLatch(1);
    String last = "no connection";
    ZooKeeper zk =
        new ZooKeeper(
            args[0],
            30_000,
            e -> {
              if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
              }
            });
    try {
      connected.await(30, TimeUnit.SECONDS);
      while (System.nanoTime() < deadline) {
        try {
          List<String> runs = zk.getChildren(root, false);
          if (runs.size() == 1) {
            String path = root + "/" + runs.get(0) + "/attempt-" + attempt + "/tasks";
            int registered =
                zk.exists(path, false) == null ? 0 : zk.getChildren(path, false).size();
            last = registered + " of " + tasks + " tasks of " + path + " registered";
            if (registered >= tasks) {
              System.out.println("rendezvous: " + last);
              return;
            }
          } else {
            last = runs.size() + " runs under " + root + ": " + runs;
          }
        } catch (KeeperException e) {
          last = e.toString();
        }
        Thread.sleep(100);
      }
    } finally {
      zk.close();
    }
    System.out.println("rendezvous not reached: " + last);
    System.exit(1);
  }
}
