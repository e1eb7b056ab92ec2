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
   * A chunk in other nodes' sponges: one copy per server, the same bytes in each, read from the
   * first copy whose server answers.
   */
  record Remote(List<RemoteChunk> copies) implements StoredChunk {
    public Remote {
      copies = List.copyOf(copies);
      if (copies.isEmpty()) {
        throw new IllegalArgumentException("a remote chunk needs at least one copy");
      }
    }

    /** The copy read first. */
    public RemoteChunk handle() {
      return copies.get(0);
    }

    @Override
    public Tier tier() {
      return Tier.REMOTE_MEMORY;
    }

    @Override
    public int length() {
      return handle().length();
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder("remote chunk ");
      for (int i = 0; i < copies.size(); i++) {
        b.append(i == 0 ? "" : ", copy ").append(copies.get(i)).append(" on ");
        b.append(copies.get(i).server());
      }
      return b.append(" (").append(length()).append(" B)").toString();
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
