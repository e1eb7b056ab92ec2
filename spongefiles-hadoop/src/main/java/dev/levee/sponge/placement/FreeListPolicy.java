package dev.levee.sponge.placement;

import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The paper's placement: the tracker's list in its order (nearest, then most free first), servers
 * the file already stored on first, so that a file spans as few nodes as possible (each extra node
 * is one more way for the task to fail). A server that said it is full, or failed, is not asked
 * again by that file. Every task reading the same list starts on the same server, which is what
 * batch sampling fixes at scale.
 */
public final class FreeListPolicy implements PlacementPolicy {
  public static final String NAME = "free-list";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public FilePlacement newFile(List<ServerListEntry> hint) {
    List<SpongeServerAddress> servers = new ArrayList<>(hint.size());
    for (ServerListEntry e : hint) {
      servers.add(e.address());
    }
    return forServers(servers);
  }

  /** A file's placement over {@code servers}, in this order. */
  public static FilePlacement forServers(List<SpongeServerAddress> servers) {
    return new File(servers);
  }

  private static final class File implements FilePlacement {
    private final List<SpongeServerAddress> candidates;
    private final Set<SpongeServerAddress> used = new LinkedHashSet<>();
    private final Set<SpongeServerAddress> exhausted = new HashSet<>();

    /** Candidates before this index are all exhausted (which they stay). */
    private int cursor;

    File(List<SpongeServerAddress> candidates) {
      this.candidates = List.copyOf(candidates);
    }

    @Override
    public synchronized List<SpongeServerAddress> order(Set<SpongeServerAddress> exclude) {
      List<SpongeServerAddress> order = new ArrayList<>();
      for (SpongeServerAddress s : used) {
        if (!exclude.contains(s)) {
          order.add(s);
        }
      }
      for (SpongeServerAddress s : candidates) {
        if (!used.contains(s) && !exhausted.contains(s) && !exclude.contains(s)) {
          order.add(s);
        }
      }
      return order;
    }

    /**
     * {@link #order}'s first without building it: a task whose list is mostly full servers asks
     * once per refusal, and each ask would otherwise walk the whole list.
     */
    @Override
    public synchronized SpongeServerAddress first(Set<SpongeServerAddress> exclude) {
      for (SpongeServerAddress s : used) {
        if (!exclude.contains(s)) {
          return s;
        }
      }
      for (int i = cursor; i < candidates.size(); i++) {
        SpongeServerAddress s = candidates.get(i);
        if (exhausted.contains(s)) {
          if (i == cursor) {
            cursor++;
          }
        } else if (!used.contains(s) && !exclude.contains(s)) {
          return s;
        }
      }
      return null;
    }

    @Override
    public void begin(SpongeServerAddress server) {}

    @Override
    public synchronized void end(SpongeServerAddress server, Outcome outcome) {
      if (outcome == Outcome.STORED) {
        used.add(server);
      } else {
        used.remove(server);
        exhausted.add(server);
      }
    }

    @Override
    public void readFailed(SpongeServerAddress server) {
      // The paper's policy only learns from stores; a read failure is the reader's concern.
    }
  }
}
