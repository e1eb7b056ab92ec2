package dev.levee.bench.hadoop.fuzz;

import dev.levee.sponge.protocol.Frame;
import dev.levee.sponge.protocol.FrameCodec;
import dev.levee.sponge.protocol.Op;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.protocol.Status;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Connections by the thousand, each asking FREE_SPACE (the cheapest request, open to anyone). Two
 * shapes: a churn of short connections from many threads and addresses, and a crowd that connects
 * all at once and stays connected until every member has had its answer, while a group of slow
 * peers trickles one byte every 200 ms. Each connection ends served (OK), refused (BUSY, or the
 * connection refused or reset), or unanswered within the timeout.
 */
final class LoadPhase {
  static final int ANSWER_TIMEOUT_MILLIS = 5000;

  /** The outcome counts of one shape. */
  static final class Outcomes {
    final AtomicLong tried = new AtomicLong();
    final AtomicLong served = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    final AtomicLong unanswered = new AtomicLong();
  }

  private static final byte[] FREE_SPACE = FrameCodec.encode(Op.FREE_SPACE.code(), 1, new byte[0]);

  /** {@code total} short connections from {@code threads} threads, hosts 100..199. */
  static Outcomes churn(SpongeServerAddress server, int total, int threads) throws Exception {
    Outcomes o = new Outcomes();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        runs.add(
            pool.submit(
                () -> {
                  for (int i = thread; i < total; i += threads) {
                    try (Socket s = Peers.connect(server, 100 + i % 100, ANSWER_TIMEOUT_MILLIS)) {
                      ask(s, o);
                    } catch (IOException e) {
                      o.tried.incrementAndGet();
                      o.refused.incrementAndGet();
                    }
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
    return o;
  }

  /**
   * {@code crowd} connections opened together from hosts 100..199, each asking once and then
   * staying connected until all have been asked; {@code slow} trickling peers from hosts 240..249
   * meanwhile.
   */
  static Outcomes crowd(SpongeServerAddress server, int crowd, int slow) throws Exception {
    Outcomes o = new Outcomes();
    ConcurrentLinkedQueue<Socket> held = new ConcurrentLinkedQueue<>();
    ExecutorService pool = Executors.newFixedThreadPool(256);
    Thread trickle = new Thread(() -> trickle(server, slow), "sponge-fuzz-slow-peers");
    trickle.setDaemon(true);
    trickle.start();
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (int i = 0; i < crowd; i++) {
        int n = i;
        runs.add(
            pool.submit(
                () -> {
                  try {
                    Socket s = Peers.connect(server, 100 + n % 100, ANSWER_TIMEOUT_MILLIS);
                    held.add(s);
                    ask(s, o);
                  } catch (IOException e) {
                    o.tried.incrementAndGet();
                    o.refused.incrementAndGet();
                  }
                  return null;
                }));
      }
      for (Future<?> f : runs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
      trickle.interrupt();
      for (Socket s : held) {
        try {
          s.close();
        } catch (IOException ignored) {
          // closing anyway
        }
      }
    }
    return o;
  }

  private static void ask(Socket s, Outcomes o) throws IOException {
    o.tried.incrementAndGet();
    s.setSoTimeout(ANSWER_TIMEOUT_MILLIS);
    try {
      s.getOutputStream().write(FREE_SPACE);
      Frame f = FrameCodec.read(new DataInputStream(s.getInputStream()), 1 << 16);
      if (Status.fromCode(f.code()) == Status.OK) {
        o.served.incrementAndGet();
      } else {
        o.refused.incrementAndGet();
      }
    } catch (SocketTimeoutException e) {
      o.unanswered.incrementAndGet();
    } catch (IOException e) {
      o.refused.incrementAndGet(); // closed or reset without an answer: turned away
    }
  }

  /** Peers that send a FREE_SPACE frame one byte every 200 ms, reconnecting when cut. */
  private static void trickle(SpongeServerAddress server, int peers) {
    List<Socket> open = new ArrayList<>();
    List<Integer> sent = new ArrayList<>();
    try {
      while (!Thread.currentThread().isInterrupted()) {
        while (open.size() < peers) {
          try {
            open.add(Peers.connect(server, 240 + open.size() % 10, 1000));
            sent.add(0);
          } catch (IOException e) {
            break; // refused now; try again next round
          }
        }
        for (int i = open.size() - 1; i >= 0; i--) {
          try {
            OutputStream out = open.get(i).getOutputStream();
            out.write(FREE_SPACE[sent.get(i) % FREE_SPACE.length]);
            sent.set(i, sent.get(i) + 1);
          } catch (IOException cut) {
            try {
              open.get(i).close();
            } catch (IOException ignored) {
              // already closed by the server
            }
            open.remove(i);
            sent.remove(i);
          }
        }
        Thread.sleep(200);
      }
    } catch (InterruptedException e) {
      // the crowd is done
    } finally {
      for (Socket s : open) {
        try {
          s.close();
        } catch (IOException ignored) {
          // closing anyway
        }
      }
    }
  }
}
