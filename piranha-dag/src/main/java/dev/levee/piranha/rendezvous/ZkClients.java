package dev.levee.piranha.rendezvous;

import dev.levee.piranha.PiranhaConf;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.hadoop.conf.Configuration;

/** Curator clients for tasks and the runner, configured from the Piranha keys. */
public final class ZkClients {
  private ZkClients() {}

  /** A started client, connected within the connection timeout or failing with the quorum named. */
  public static CuratorFramework connect(Configuration conf) throws IOException {
    String quorum = PiranhaConf.quorum(conf);
    int session = PiranhaConf.get(conf, PiranhaConf.ZK_SESSION_TIMEOUT_MS);
    // Curator warns when a connection may take longer than the session it is for.
    int connection = Math.min(session, PiranhaConf.get(conf, PiranhaConf.ZK_CONNECTION_TIMEOUT_MS));
    CuratorFramework client =
        CuratorFrameworkFactory.builder()
            .connectString(quorum)
            .sessionTimeoutMs(session)
            .connectionTimeoutMs(connection)
            // Bounded: an operation keeps retrying for a few seconds, never forever.
            .retryPolicy(new BoundedExponentialBackoffRetry(100, 1000, 8))
            .build();
    client.start();
    try {
      if (!client.blockUntilConnected(connection, TimeUnit.MILLISECONDS)) {
        client.close();
        throw new IOException(
            "cannot reach ZooKeeper at "
                + quorum
                + " within "
                + connection
                + " ms ("
                + PiranhaConf.ZK_CONNECTION_TIMEOUT_MS.name()
                + ")");
      }
    } catch (InterruptedException e) {
      client.close();
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while connecting to ZooKeeper at " + quorum);
    }
    return client;
  }

  /**
   * Closes {@code client} without waiting for it to finish. ZooKeeper's NIO client sleeps 100 ms in
   * its socket clean-up after the server has already ended the session, and both the last task of a
   * run and the runner would add that sleep to what the user waits for. A JVM that exits before the
   * close reached the server leaves a session ZooKeeper expires on its own; the run's znodes go
   * with the runner's clean-up either way.
   */
  public static void closeInBackground(CuratorFramework client) {
    Thread closer = new Thread(client::close, "piranha-zookeeper-close");
    closer.setDaemon(true);
    closer.start();
  }
}
