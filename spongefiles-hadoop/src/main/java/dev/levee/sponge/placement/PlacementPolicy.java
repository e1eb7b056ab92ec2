package dev.levee.sponge.placement;

import dev.levee.sponge.discovery.ServerListEntry;
import java.util.List;

/**
 * How one client (a task's sponge file system) spreads its remote chunks over the sponge servers.
 * One instance per client: state that outlives a file (load estimates, the request window, servers
 * that failed) lives here; each file gets its own {@link FilePlacement}.
 */
public interface PlacementPolicy {

  /** The policy's configuration word, e.g. {@code batch-sampling}. */
  String name();

  /**
   * Starts placing one file's chunks.
   *
   * @param hint the tracker's list as of now (servers with free chunks at its last poll, free
   *     counts may be unknown: {@code -1}); only a hint, possibly stale
   */
  FilePlacement newFile(List<ServerListEntry> hint);
}
