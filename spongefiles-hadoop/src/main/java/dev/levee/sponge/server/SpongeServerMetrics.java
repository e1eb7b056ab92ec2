package dev.levee.sponge.server;

import dev.levee.sponge.local.SharedMemoryPool;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Counters of one sponge server; pool gauges are read live from the pool. */
public final class SpongeServerMetrics implements SpongeServerMetricsMBean {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeServerMetrics.class);

  private final SharedMemoryPool pool;
  private final IntSupplier remoteChunksHeld;
  final LongAdder bytesIn = new LongAdder();
  final LongAdder bytesOut = new LongAdder();
  final LongAdder allocations = new LongAdder();
  final LongAdder freeSpaceRequests = new LongAdder();
  final LongAdder rejectionsPoolFull = new LongAdder();
  final LongAdder rejectionsQuota = new LongAdder();
  final LongAdder capabilityDenials = new LongAdder();
  final LongAdder protocolErrors = new LongAdder();
  final LongAdder gcReclaimed = new LongAdder();
  final LongAdder gcRuns = new LongAdder();
  final AtomicInteger openConnections = new AtomicInteger();
  final LongAdder connectionsRefused = new LongAdder();
  final LongAdder exchangesTimedOut = new LongAdder();
  final LongAdder handshakesEvicted = new LongAdder();
  final LongAdder authenticationFailures = new LongAdder();
  final LongAdder secretsGranted = new LongAdder();
  private volatile TransferBuffers transferBuffers;
  private ObjectName registeredAs;

  SpongeServerMetrics(SharedMemoryPool pool, IntSupplier remoteChunksHeld) {
    this.pool = pool;
    this.remoteChunksHeld = remoteChunksHeld;
  }

  /**
   * Registers under {@code dev.levee.sponge:type=SpongeServer,port=<port>}; a failure is logged,
   * not fatal.
   */
  synchronized void register(int port) {
    try {
      ObjectName name = new ObjectName("dev.levee.sponge:type=SpongeServer,port=" + port);
      MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
      if (mbs.isRegistered(name)) {
        mbs.unregisterMBean(name);
      }
      mbs.registerMBean(this, name);
      registeredAs = name;
    } catch (JMException e) {
      LOG.warn("sponge server metrics not registered over JMX: {}", e.toString());
    }
  }

  synchronized void unregister() {
    if (registeredAs != null) {
      try {
        ManagementFactory.getPlatformMBeanServer().unregisterMBean(registeredAs);
      } catch (JMException e) {
        LOG.debug("unregistering {}: {}", registeredAs, e.toString());
      }
      registeredAs = null;
    }
  }

  @Override
  public int getChunkSize() {
    return pool.chunkSize();
  }

  @Override
  public int getChunksTotal() {
    return pool.chunkCount();
  }

  @Override
  public int getChunksUsed() {
    return pool.chunkCount() - pool.freeChunks();
  }

  @Override
  public int getChunksFree() {
    return pool.freeChunks();
  }

  @Override
  public int getRemoteChunksHeld() {
    return remoteChunksHeld.getAsInt();
  }

  @Override
  public long getBytesIn() {
    return bytesIn.sum();
  }

  @Override
  public long getBytesOut() {
    return bytesOut.sum();
  }

  @Override
  public long getAllocations() {
    return allocations.sum();
  }

  @Override
  public long getFreeSpaceRequests() {
    return freeSpaceRequests.sum();
  }

  @Override
  public long getRejectionsPoolFull() {
    return rejectionsPoolFull.sum();
  }

  @Override
  public long getRejectionsQuota() {
    return rejectionsQuota.sum();
  }

  @Override
  public long getCapabilityDenials() {
    return capabilityDenials.sum();
  }

  @Override
  public long getProtocolErrors() {
    return protocolErrors.sum();
  }

  @Override
  public long getGcReclaimedChunks() {
    return gcReclaimed.sum();
  }

  @Override
  public long getGcRuns() {
    return gcRuns.sum();
  }

  @Override
  public int getOpenConnections() {
    return openConnections.get();
  }

  void transferBuffers(TransferBuffers b) {
    this.transferBuffers = b;
  }

  @Override
  public long getConnectionsRefused() {
    return connectionsRefused.sum();
  }

  @Override
  public long getExchangesTimedOut() {
    return exchangesTimedOut.sum();
  }

  @Override
  public long getHandshakesEvicted() {
    return handshakesEvicted.sum();
  }

  @Override
  public long getTransferBufferBytes() {
    TransferBuffers b = transferBuffers;
    return b == null ? 0 : b.allocatedBytes();
  }

  @Override
  public long getAuthenticationFailures() {
    return authenticationFailures.sum();
  }

  @Override
  public long getSecretsGranted() {
    return secretsGranted.sum();
  }
}
