package dev.levee.bench.limits;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Throughput of one TCP connection over 127.0.0.1: a sender thread writes {@code bytes} from a
 * direct buffer, a receiver thread reads them all. Timed from the first write to the receiver
 * having every byte, so kernel socket buffers cannot hide unsent data. The ceiling for
 * remote-memory spills on a single host.
 */
final class LoopbackTcpProbe implements BandwidthProbe {
  private static final int CHUNK = 1 << 20;
  private final long bytes;
  private ExecutorService receiver;

  LoopbackTcpProbe(long bytes) {
    this.bytes = bytes;
  }

  @Override
  public String variant() {
    return "tcp-loopback";
  }

  @Override
  public Map<String, Object> params() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("bytes", bytes);
    p.put("chunk_bytes", CHUNK);
    p.put("connections", 1);
    return p;
  }

  @Override
  public String method() {
    return "one TCP connection on 127.0.0.1, sender and receiver threads, 1 MiB writes/reads";
  }

  @Override
  public void setUp() {
    receiver =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "levee-tcp-receiver");
              t.setDaemon(true);
              return t;
            });
  }

  @Override
  public Sample measure() throws Exception {
    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      Future<Long> received = receiver.submit(() -> receive(server));
      ByteBuffer out = ByteBuffer.allocateDirect(CHUNK);
      Buffers.fillRandom(out, 3);
      try (SocketChannel client = SocketChannel.open(server.getLocalAddress())) {
        long start = System.nanoTime();
        long sent = 0;
        while (sent < bytes) {
          out.clear();
          out.limit((int) Math.min(CHUNK, bytes - sent));
          while (out.hasRemaining()) {
            sent += client.write(out);
          }
        }
        client.shutdownOutput();
        long got = received.get(10, TimeUnit.MINUTES);
        Sample s = Sample.timed(got, start);
        if (got != bytes) {
          throw new IOException("receiver got " + got + " bytes, expected " + bytes);
        }
        return s;
      } finally {
        Buffers.free(out);
      }
    }
  }

  private long receive(ServerSocketChannel server) throws IOException {
    ByteBuffer in = ByteBuffer.allocateDirect(CHUNK);
    try (SocketChannel peer = server.accept()) {
      long total = 0;
      int n;
      while ((n = peer.read(in.clear())) >= 0) {
        total += n;
      }
      return total;
    } finally {
      Buffers.free(in);
    }
  }

  @Override
  public void close() {
    if (receiver != null) {
      receiver.shutdownNow();
    }
  }
}
