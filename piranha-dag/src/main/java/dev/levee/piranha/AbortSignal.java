package dev.levee.piranha;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The one-way switch every wait in a task checks: once a reason is set (a peer's abort seen in
 * ZooKeeper, a lost session, a broken stream, a passed deadline) it stays set, wakes every waiter,
 * and runs the listeners once (close sockets, interrupt the task's thread, arm the halt watchdog).
 */
public final class AbortSignal {
  private final Object lock = new Object();
  private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
  private volatile String reason;

  /** Sets the reason if none is set yet; returns whether this call set it. */
  public boolean abort(String why) {
    synchronized (lock) {
      if (reason != null) {
        return false;
      }
      reason = why;
      lock.notifyAll();
    }
    for (Consumer<String> l : listeners) {
      try {
        l.accept(why);
      } catch (RuntimeException e) {
        // A listener's failure must not stop the others from closing their resources.
      }
    }
    return true;
  }

  public boolean aborted() {
    return reason != null;
  }

  public String reason() {
    return reason;
  }

  /** Throws if aborted. */
  public void check() throws PiranhaAbortedException {
    String r = reason;
    if (r != null) {
      throw new PiranhaAbortedException(r);
    }
  }

  /** Runs {@code listener} on abort, at once if already aborted. */
  public void onAbort(Consumer<String> listener) {
    listeners.add(listener);
    String r = reason;
    if (r != null) {
      listener.accept(r);
    }
  }

  /** Sleeps up to {@code millis}, returning early on abort. */
  public void sleep(long millis) throws InterruptedException {
    synchronized (lock) {
      if (reason == null && millis > 0) {
        lock.wait(millis);
      }
    }
  }
}
