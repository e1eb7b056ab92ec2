package dev.levee.sponge.placement;

import dev.levee.sponge.protocol.ServerLoad;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * One file's view of its policy: which servers its next chunk copy tries, in order, and what the
 * servers answered. Thread-safe: a file's pipelined stores complete on other threads.
 */
public interface FilePlacement {

  /** How a store attempt on one server ended. */
  enum Outcome {
    /** The server holds the copy. */
    STORED,
    /** The server had no free chunk (or no quota) for this client. */
    FULL,
    /** The server could not be reached or answered with an error. */
    FAILED
  }

  /**
   * Servers to try for the next copy of a chunk, best first; never one of {@code exclude} (the
   * servers holding the chunk's other copies). Empty when no server is left for this file.
   */
  List<SpongeServerAddress> order(Set<SpongeServerAddress> exclude);

  /**
   * The first of {@link #order}, or null when it is empty: all a pipelined store needs (it asks
   * again after a refusal). Policies may answer it without ordering every candidate.
   */
  default SpongeServerAddress first(Set<SpongeServerAddress> exclude) {
    List<SpongeServerAddress> order = order(exclude);
    return order.isEmpty() ? null : order.get(0);
  }

  /**
   * Called before a store is sent to {@code server}; blocks while the client's request window is
   * full. Every call is matched by one {@link #end}.
   *
   * @throws IOException when interrupted while waiting for the window
   */
  void begin(SpongeServerAddress server) throws IOException;

  /** Called once a store sent after {@link #begin} has its answer (or failed). */
  void end(SpongeServerAddress server, Outcome outcome);

  /**
   * {@link #end}, with the load the server reported in its answer ({@link ServerLoad#UNKNOWN} when
   * it reported none). Policies that do not weigh load need not override it.
   */
  default void end(SpongeServerAddress server, Outcome outcome, ServerLoad load) {
    end(server, outcome);
  }

  /** A read of a chunk on {@code server} failed: later copies should avoid it. */
  void readFailed(SpongeServerAddress server);
}
