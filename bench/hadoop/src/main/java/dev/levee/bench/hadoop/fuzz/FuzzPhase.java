package dev.levee.bench.hadoop.fuzz;

import dev.levee.sponge.protocol.FrameFuzzer;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fuzz run: {@code inputs} seeded hostile frames of every op ({@link FrameFuzzer}, the CI fuzz
 * test's generator), a few per connection, sent by several threads from many addresses. A
 * connection must end with replies or a close; one that neither answers nor closes within the
 * timeout is a hang.
 */
final class FuzzPhase {
  static final int FRAMES_PER_CONNECTION = 5;
  static final int THREADS = 4;
  static final int HANG_TIMEOUT_MILLIS = 10_000;

  final AtomicLong inputs = new AtomicLong();
  final AtomicLong connections = new AtomicLong();
  final AtomicLong replies = new AtomicLong();
  final AtomicLong hangs = new AtomicLong();
  final AtomicLong connectFailures = new AtomicLong();

  void run(SpongeServerAddress server, long totalInputs, long seed, int chunkBytes, int chunks)
      throws Exception {
    long perThread = totalInputs / THREADS / FRAMES_PER_CONNECTION;
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        runs.add(
            pool.submit(
                () -> {
                  FrameFuzzer fuzzer =
                      new FrameFuzzer(new Random(seed + thread), chunkBytes, chunks + 2);
                  for (long c = 0; c < perThread; c++) {
                    connection(server, fuzzer, 2 + (int) ((c * THREADS + thread) % 60));
                  }
                  return null;
                }));
      }
      for (Future<?> f : runs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private void connection(SpongeServerAddress server, FrameFuzzer fuzzer, int host) {
    List<byte[]> frames = fuzzer.next(FRAMES_PER_CONNECTION);
    inputs.addAndGet(frames.size());
    try (Socket s = Peers.connect(server, host, 5000)) {
      connections.incrementAndGet();
      s.setSoTimeout(HANG_TIMEOUT_MILLIS);
      FrameFuzzer.Exchange exchange = FrameFuzzer.exchange(s, frames);
      replies.addAndGet(exchange.replies());
      if (exchange.hung()) {
        hangs.incrementAndGet();
      }
    } catch (IOException e) {
      connectFailures.incrementAndGet();
    }
  }
}
