package dev.levee.bench.hadoop.fuzz;

import dev.levee.sponge.protocol.FrameFuzzer;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
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
    List<byte[]> frames = new ArrayList<>(FRAMES_PER_CONNECTION);
    for (int i = 0; i < FRAMES_PER_CONNECTION; i++) {
      frames.add(fuzzer.next());
    }
    inputs.addAndGet(frames.size());
    try (Socket s = Peers.connect(server, host, 5000)) {
      connections.incrementAndGet();
      s.setSoTimeout(HANG_TIMEOUT_MILLIS);
      try {
        for (byte[] f : frames) {
          s.getOutputStream().write(f);
        }
        s.shutdownOutput();
      } catch (IOException closedEarly) {
        // the server closed after a frame it could not resync from: read what it said
      }
      DataInputStream in = new DataInputStream(s.getInputStream());
      try {
        while (true) {
          int len = in.readInt();
          in.skipNBytes(len);
          replies.incrementAndGet();
        }
      } catch (EOFException | SocketException closed) {
        // closed by the server: the expected end
      } catch (SocketTimeoutException e) {
        hangs.incrementAndGet();
      }
    } catch (IOException e) {
      connectFailures.incrementAndGet();
    }
  }
}
