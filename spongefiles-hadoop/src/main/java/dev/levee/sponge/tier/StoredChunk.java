package dev.levee.sponge.tier;

import dev.levee.sponge.Tier;
import dev.levee.sponge.client.RemoteChunk;
import java.nio.file.Path;
import java.util.List;

/** Where one chunk of a SpongeFile was put: the file's private "inode" entry for it. */
public sealed interface StoredChunk {
  Tier tier();

  /** Bytes of file data in the chunk. */
  int length();

  /** A chunk of this node's sponge pool. */
  record Local(int index, int length) implements StoredChunk {
    @Override
    public Tier tier() {
      return Tier.LOCAL_MEMORY;
    }

    @Override
    public String toString() {
      return "local sponge chunk " + index + " (" + length + " B)";
    }
  }

  /**
   * A chunk held by sponge servers: in other nodes' sponges, one copy per server, the same bytes in
   * each, read from the first copy whose server answers; or ({@link Tier#LOCAL_SERVER}) in this
   * node's sponge, through its server.
   */
  record Remote(List<RemoteChunk> copies, Tier tier) implements StoredChunk {
    public Remote {
      copies = List.copyOf(copies);
      if (copies.isEmpty()) {
        throw new IllegalArgumentException("a remote chunk needs at least one copy");
      }
      if (tier != Tier.REMOTE_MEMORY && tier != Tier.LOCAL_SERVER) {
        throw new IllegalArgumentException("a chunk held by a sponge server is not in " + tier);
      }
    }

    /** Copies in other nodes' sponges. */
    public Remote(List<RemoteChunk> copies) {
      this(copies, Tier.REMOTE_MEMORY);
    }

    /** The copy read first. */
    public RemoteChunk handle() {
      return copies.get(0);
    }

    @Override
    public int length() {
      return handle().length();
    }

    @Override
    public String toString() {
      // A copy names its index, length and server itself: "remote chunk 9 (1048576 B) on sponge
      // server nm2:7788, a copy on sponge server nm3:7788".
      StringBuilder b =
          new StringBuilder(tier == Tier.LOCAL_SERVER ? "local " : "remote ").append(copies.get(0));
      for (int i = 1; i < copies.size(); i++) {
        b.append(", a copy on sponge server ").append(copies.get(i).server());
      }
      return b.toString();
    }
  }

  /** A byte range of the file's single local spill file. */
  record Disk(Path file, long offset, int length) implements StoredChunk {
    @Override
    public Tier tier() {
      return Tier.LOCAL_DISK;
    }

    @Override
    public String toString() {
      return "disk " + file + " @" + offset + " (" + length + " B)";
    }
  }

  /** A byte range of the file's single last-resort file on a Hadoop FileSystem. */
  record Dfs(org.apache.hadoop.fs.Path file, long offset, int length) implements StoredChunk {
    @Override
    public Tier tier() {
      return Tier.DFS;
    }

    @Override
    public String toString() {
      return "dfs " + file + " @" + offset + " (" + length + " B)";
    }
  }
}
