package dev.levee.piranha.rendezvous;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * Readies the ZooKeeper client in a task JVM before the task needs it. The first connection of a
 * cold JVM spends a few hundred milliseconds before its first byte reaches ZooKeeper: loading
 * Curator, and ZooKeeper's TLS defaults (its X509Util sets up the JVM's default SSLContext even for
 * a plain connection). A task spends that between its start and its registration, which its parents
 * wait for; begun while MapReduce is still setting the task up (reading its split, opening its
 * input), it overlaps work the task waits for anyway. Nothing connects here.
 */
public final class ZkWarmUp {
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private ZkWarmUp() {}

  /** Starts the warm-up once per JVM, on a daemon thread. */
  public static void startInBackground() {
    if (!STARTED.compareAndSet(false, true)) {
      return;
    }
    Thread warm = new Thread(ZkWarmUp::warm, "piranha-zookeeper-warm-up");
    warm.setDaemon(true);
    warm.start();
  }

  private static void warm() {
    try {
      new ZKClientConfig();
      // Built, never started: loads the client's classes without a session.
      CuratorFrameworkFactory.builder()
          .connectString("localhost:1")
          .retryPolicy(new BoundedExponentialBackoffRetry(100, 1000, 8))
          .build();
      CuratorCache.class.getName();
    } catch (RuntimeException | LinkageError e) {
      // Only a head start: the task's own connection reports whatever is wrong.
    }
  }
}
