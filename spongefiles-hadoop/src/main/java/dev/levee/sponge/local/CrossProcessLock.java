package dev.levee.sponge.local;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A spin lock shared by every process (and thread) that maps the pool: a 64-bit word in the mapped
 * metadata, taken by compare-and-set. The word holds the holder's pid, so a waiter can tell a
 * holder that died (kill -9 inside the critical section) from a slow one, and take the lock over
 * with a CAS from exactly the dead holder's word. A per acquisition token in the low half keeps
 * threads of one process apart and makes the takeover immune to ABA.
 *
 * <p>Critical sections are a few microseconds (one metadata entry), so waiters spin, then yield,
 * then park briefly; liveness of the holder is checked only every few milliseconds because it costs
 * a /proc lookup.
 */
final class CrossProcessLock {
  private static final VarHandle LONGS =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
  private static final VarHandle INTS =
      MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());
  private static final AtomicInteger TOKENS = new AtomicInteger();
  private static final long PID = ProcessHandle.current().pid();
  private static final long LIVENESS_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  /**
   * A lock word must stay unchanged this long before its holder may be judged dead. Critical
   * sections take microseconds, so this costs nothing normally; it guards against a holder whose
   * pid this process cannot see (a task in another pid namespace, e.g. a Docker container) being
   * taken for dead in mid-update.
   */
  private static final long BREAK_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  /**
   * Called with the lock held after it was taken from a dead holder: metadata may be mid-update.
   */
  interface Recovery {
    void afterBrokenLock(long deadPid);
  }

  private final ByteBuffer meta;
  private final Recovery recovery;

  /** The lock word a wait of this process last ran out on; 0 when none is known to be stuck. */
  private volatile long stuck;

  private final AtomicLong timeouts = new AtomicLong();
  private final AtomicLong skips = new AtomicLong();

  CrossProcessLock(ByteBuffer meta, Recovery recovery) {
    this.meta = meta;
    this.recovery = recovery;
  }

  /** Acquires the lock and returns the word to pass to {@link #unlock(long)}. */
  long lock() {
    return lock(Long.MAX_VALUE);
  }

  /**
   * Acquires the lock, waiting at most {@code maxWaitNanos}; returns the word to pass to {@link
   * #unlock(long)}, or 0 when the wait ran out. A holder that is alive but does not run (stopped
   * with SIGSTOP, frozen in a debugger, swapped out) would otherwise freeze every process on the
   * node that allocates: bounded, it costs each of them one wait and a fallback to the next tier.
   */
  long lock(long maxWaitNanos) {
    long begin = System.nanoTime();
    long mine = (PID << 32) | (nextToken() & 0xFFFFFFFFL);
    int spins = 0;
    long lastCheck = System.nanoTime();
    long watched = 0;
    long watchedSince = lastCheck;
    while (true) {
      long seen = (long) LONGS.getVolatile(meta, PoolLayout.LOCK_OFFSET);
      if (seen == 0) {
        if (LONGS.compareAndSet(meta, PoolLayout.LOCK_OFFSET, 0L, mine)) {
          return mine;
        }
        continue;
      }
      long now = System.nanoTime();
      if (now - begin >= maxWaitNanos) {
        timeouts.incrementAndGet();
        return 0L;
      }
      if (seen != watched) {
        watched = seen;
        watchedSince = now;
      }
      if (now - lastCheck >= LIVENESS_CHECK_NANOS && now - watchedSince >= BREAK_GRACE_NANOS) {
        lastCheck = now;
        long holder = seen >>> 32;
        if (holder != PID
            && !isAlive(holder)
            && LONGS.compareAndSet(meta, PoolLayout.LOCK_OFFSET, seen, mine)) {
          INTS.getAndAdd(meta, PoolLayout.LOCK_BREAKS_OFFSET, 1);
          recovery.afterBrokenLock(holder);
          return mine;
        }
      }
      backOff(spins++);
    }
  }

  /**
   * {@link #lock(long)} for callers that have somewhere else to go (an allocation falls back to the
   * next tier): while the lock still holds the very word a wait already ran out on, and that
   * holder's process is alive, answers 0 at once. A stopped holder then costs each process one
   * bounded wait, not one per chunk. Once the word changes (the holder ran on) or its process is
   * gone (its lock can be broken), callers wait again.
   */
  long lockUnlessStuck(long maxWaitNanos) {
    long known = stuck;
    if (known != 0L) {
      if ((long) LONGS.getVolatile(meta, PoolLayout.LOCK_OFFSET) == known
          && isAlive(known >>> 32)) {
        skips.incrementAndGet();
        return 0L;
      }
      stuck = 0L;
    }
    long word = lock(maxWaitNanos);
    if (word == 0L) {
      stuck = (long) LONGS.getVolatile(meta, PoolLayout.LOCK_OFFSET);
    }
    return word;
  }

  /** Waits in this process that ran out (see {@link #lock(long)}). */
  long timeouts() {
    return timeouts.get();
  }

  /** Calls {@link #lockUnlessStuck} answered at once because the holder was known to be stuck. */
  long skips() {
    return skips.get();
  }

  void unlock(long word) {
    if (!LONGS.compareAndSet(meta, PoolLayout.LOCK_OFFSET, word, 0L)) {
      // Only a waiter that judged this (live) process dead could have replaced the word: a pid
      // namespace or pid
      // reuse confusion that would make the metadata unsafe to trust.
      throw new IllegalStateException(
          "sponge pool lock was taken from a live holder (pid "
              + PID
              + "); lock word is now "
              + Long.toHexString((long) LONGS.getVolatile(meta, PoolLayout.LOCK_OFFSET)));
    }
  }

  /** The pid currently holding the lock, or 0. */
  long holderPid() {
    return ((long) LONGS.getVolatile(meta, PoolLayout.LOCK_OFFSET)) >>> 32;
  }

  private static int nextToken() {
    int t;
    do {
      t = TOKENS.incrementAndGet();
    } while (t == 0);
    return t;
  }

  private static boolean isAlive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  private static void backOff(int spins) {
    if (spins < 100) {
      Thread.onSpinWait();
    } else if (spins < 200) {
      Thread.yield();
    } else {
      LockSupport.parkNanos(50_000);
    }
  }
}
