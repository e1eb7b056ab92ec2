package dev.levee.sponge.server;

import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.discovery.ServerListCodec;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.discovery.SpongeZnodes;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's memory tracker, run by whichever sponge server holds the ZooKeeper leader latch.
 * While leading it polls every registered server for free chunks and publishes those with room to
 * {@code root/free-servers}, where clients read it. It keeps no state between polls, so a new
 * leader simply starts polling.
 */
final class MemoryTracker implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(MemoryTracker.class);

  private final CuratorFramework zk;
  private final SpongeZnodes znodes;
  private final String nodeName;
  private final SpongeClient probe;
  private final long pollMillis;
  private final LeaderLatch latch;
  private final ScheduledExecutorService timer;
  private final ExecutorService probes;
  private ScheduledFuture<?> polling;
  private volatile long lastPublishedMillis;

  MemoryTracker(
      CuratorFramework zk,
      SpongeZnodes znodes,
      String nodeName,
      SpongeClient probe,
      long pollMillis) {
    this.zk = zk;
    this.znodes = znodes;
    this.nodeName = nodeName;
    this.probe = probe;
    this.pollMillis = pollMillis;
    this.latch = new LeaderLatch(zk, znodes.trackerLatch(), nodeName);
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "sponge-tracker"));
    // Probes run in parallel so that one slow or dead server does not delay everyone else's entry.
    this.probes = Executors.newFixedThreadPool(8, r -> daemon(r, "sponge-tracker-probe"));
  }

  void start() throws IOException {
    latch.addListener(
        new LeaderLatchListener() {
          @Override
          public void isLeader() {
            LOG.info(
                "{} is now the sponge memory tracker; polling every {} ms", nodeName, pollMillis);
            startPolling();
          }

          @Override
          public void notLeader() {
            LOG.info("{} is no longer the sponge memory tracker", nodeName);
            stopPolling();
          }
        },
        timer);
    try {
      latch.start();
    } catch (Exception e) {
      throw new IOException(
          "cannot join the sponge tracker election at " + znodes.trackerLatch(), e);
    }
  }

  boolean isLeader() {
    return latch.hasLeadership();
  }

  long lastPublishedMillis() {
    return lastPublishedMillis;
  }

  private synchronized void startPolling() {
    if (polling == null) {
      polling =
          timer.scheduleWithFixedDelay(this::pollSafely, 0, pollMillis, TimeUnit.MILLISECONDS);
    }
  }

  private synchronized void stopPolling() {
    if (polling != null) {
      polling.cancel(false);
      polling = null;
    }
  }

  private void pollSafely() {
    try {
      poll();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
        return;
      }
      LOG.warn("sponge tracker poll failed; retrying next period: {}", e.toString());
    }
  }

  /** One poll: registered servers, their free space, the published list. */
  void poll() throws Exception {
    if (!latch.hasLeadership()) {
      return;
    }
    List<String> children;
    try {
      children = zk.getChildren().forPath(znodes.servers());
    } catch (KeeperException.NoNodeException e) {
      children = List.of();
    }
    List<CompletableFuture<ServerListEntry>> answers = new ArrayList<>();
    for (String child : children) {
      SpongeServerAddress address;
      try {
        address = ServerListCodec.decodeServer(zk.getData().forPath(znodes.server(child)));
      } catch (KeeperException.NoNodeException e) {
        continue;
      } catch (IllegalArgumentException e) {
        LOG.warn("ignoring bad sponge server registration {}: {}", child, e.getMessage());
        continue;
      }
      answers.add(CompletableFuture.supplyAsync(() -> freeSpaceOf(address), probes));
    }
    List<ServerListEntry> withRoom = new ArrayList<>();
    for (CompletableFuture<ServerListEntry> f : answers) {
      ServerListEntry e = f.get();
      if (e != null && e.freeChunks() > 0) {
        withRoom.add(e);
      }
    }
    withRoom.sort(Comparator.comparingInt(ServerListEntry::freeChunks).reversed());
    if (!latch.hasLeadership()) {
      return; // lost the latch while polling: the new leader publishes now
    }
    long now = System.currentTimeMillis();
    zk.create()
        .orSetData()
        .creatingParentsIfNeeded()
        .forPath(znodes.freeServers(), ServerListCodec.encode(now, nodeName, withRoom));
    lastPublishedMillis = now;
  }

  private ServerListEntry freeSpaceOf(SpongeServerAddress address) {
    try {
      SpongeClient.FreeSpace fs = probe.freeSpace(address);
      return new ServerListEntry(address, fs.freeChunks(), fs.totalChunks());
    } catch (IOException e) {
      LOG.info("sponge server {} did not answer the tracker: {}", address, e.getMessage());
      return null;
    }
  }

  @Override
  public void close() throws IOException {
    stopPolling();
    try {
      latch.close();
    } catch (IllegalStateException e) {
      // never started
    }
    timer.shutdownNow();
    probes.shutdownNow();
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
