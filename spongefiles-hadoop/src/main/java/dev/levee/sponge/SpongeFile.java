package dev.levee.sponge;

import dev.levee.sponge.tier.ChunkTier;
import dev.levee.sponge.tier.StoredChunk;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A spill file made of fixed-size chunks, each stored in the nearest tier with room (local sponge,
 * remote sponge, local disk, DFS). Written once through {@link #output()}, read back sequentially
 * through {@link #input()}, then {@link #delete() deleted}, which frees every chunk in every tier.
 * One writer, then any number of independent sequential readers (a Pig bag may be iterated by
 * several iterators at once, and an iterator may be abandoned half-way); the file is private to the
 * process that created it (no name space, no sharing), and lives no longer than that process.
 *
 * <p>Create files with {@link SpongeFileSystem#create(String)}.
 */
public final class SpongeFile {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeFile.class);

  private enum State {
    NEW,
    WRITING,
    WRITTEN,
    FAILED,
    DELETED
  }

  private final SpongeFileSystem fs;
  private final long id;
  private final String name;
  private final Map<Tier, ChunkTier> tiers;
  private final ChunkPlacer placer;
  private final List<StoredChunk> chunks = new ArrayList<>();
  private State state = State.NEW;
  private long length;
  private SpongeOutputStream writer;
  // Weak: a reader abandoned unclosed (a Pig iterator left half-way) must not keep its chunk
  // buffers for the file's life; the live ones are still aborted by delete(). SpongeInputStream has
  // identity equality, so this is an identity set.
  private final Set<SpongeInputStream> readers = Collections.newSetFromMap(new WeakHashMap<>());

  SpongeFile(SpongeFileSystem fs, long id, String name, Map<Tier, ChunkTier> tiers) {
    this.fs = fs;
    this.id = id;
    this.name = name;
    this.tiers = Collections.unmodifiableMap(new EnumMap<>(tiers));
    List<ChunkTier> spill = new ArrayList<>();
    for (Tier t : new Tier[] {Tier.LOCAL_SERVER, Tier.REMOTE_MEMORY, Tier.LOCAL_DISK, Tier.DFS}) {
      if (tiers.containsKey(t)) {
        spill.add(tiers.get(t));
      }
    }
    this.placer = new ChunkPlacer(name, spill, fs.metrics());
  }

  /** The label given at creation, made unique with the file's id; for logs and error messages. */
  public String name() {
    return name;
  }

  long id() {
    return id;
  }

  /** Opens the file for its one sequential write; closing the stream seals the file. */
  public synchronized OutputStream output() throws IOException {
    requireState(State.NEW, "opened for writing");
    state = State.WRITING;
    writer =
        new SpongeOutputStream(
            this,
            (dev.levee.sponge.tier.LocalMemoryTier) tiers.get(Tier.LOCAL_MEMORY),
            placer,
            fs.metrics(),
            fs.executor(),
            fs.buffers(),
            fs.config().maxInFlightWrites());
    return writer;
  }

  /** Opens a sequential reader over the sealed file, independent of any other open reader. */
  public InputStream input() throws IOException {
    return input(fs.config().prefetch());
  }

  /**
   * As {@link #input()}, choosing whether the next chunk outside the local sponge is fetched ahead
   * (two chunk buffers instead of one): a merge reading many files at once may not have the memory
   * for it.
   */
  public synchronized InputStream input(boolean prefetch) throws IOException {
    requireState(State.WRITTEN, "read");
    SpongeInputStream reader =
        new SpongeInputStream(
            this, List.copyOf(chunks), tiers, fs.metrics(), fs.executor(), fs.buffers(), prefetch);
    readers.add(reader);
    return reader;
  }

  /** Bytes in the file; final once the writer is closed. */
  public synchronized long length() {
    return state == State.WRITING ? writer.written() : length;
  }

  /** Where each chunk went, in file order (only complete once the writer is closed). */
  public synchronized List<StoredChunk> chunks() {
    List<StoredChunk> out = new ArrayList<>();
    for (StoredChunk c : chunks) {
      if (c != null) {
        out.add(c);
      }
    }
    return out;
  }

  /** Bytes of this file per tier (tiers with no bytes are absent). */
  public synchronized Map<Tier, Long> bytesByTier() {
    Map<Tier, Long> m = new EnumMap<>(Tier.class);
    for (StoredChunk c : chunks) {
      if (c != null) {
        m.merge(c.tier(), (long) c.length(), Long::sum);
      }
    }
    return m;
  }

  public synchronized boolean isDeleted() {
    return state == State.DELETED;
  }

  /**
   * Frees every chunk in every tier (waiting first for background writes of this file) and closes
   * open streams. Idempotent. Keeps freeing past a failure and throws the first one at the end.
   */
  public void delete() throws IOException {
    if (!detach()) {
      return;
    }
    IOException failed = free(tiers.values());
    deleted();
    if (failed != null) {
      throw failed;
    }
  }

  /**
   * {@link #delete} for a caller that must not wait for the frees: a merge closing a run it has
   * drained. The file is gone when this returns (streams closed, local sponge chunks free, which is
   * a memory update); chunks in other tiers, a round trip or a file system call each, are freed on
   * the file system's background threads, which {@link SpongeFileSystem#close} waits for. Never
   * throws: a failed free is logged and counted ({@code free.failures}), and sponge servers reclaim
   * memory chunks once this task's owner lease lapses.
   */
  public void deleteInBackground() {
    if (!detach()) {
      return;
    }
    List<ChunkTier> now = new ArrayList<>();
    List<ChunkTier> later = new ArrayList<>();
    for (ChunkTier t : tiers.values()) {
      (t.tier() == Tier.LOCAL_MEMORY ? now : later).add(t);
    }
    logFailure(free(now));
    deleted();
    if (!later.isEmpty()) {
      fs.freeInBackground(() -> logFailure(free(later)));
    }
  }

  /** Marks the file deleted and stops its streams; false when it already was. */
  private boolean detach() {
    SpongeOutputStream w;
    List<SpongeInputStream> r;
    synchronized (this) {
      if (state == State.DELETED) {
        return false;
      }
      state = State.DELETED;
      w = writer;
      r = new ArrayList<>(readers);
      readers.clear();
    }
    if (w != null) {
      w.abort();
    }
    for (SpongeInputStream open : r) {
      open.abort();
    }
    return true;
  }

  private void deleted() {
    fs.forget(this);
    fs.metrics().fileDeleted();
  }

  /** Frees this file's chunks in {@code from}, past failures; returns the first one. */
  private IOException free(Collection<ChunkTier> from) {
    long start = System.nanoTime();
    IOException first = null;
    for (ChunkTier tier : from) {
      try {
        fs.metrics().freed(tier.tier(), tier.releaseAll());
      } catch (IOException | RuntimeException e) {
        fs.metrics().error(tier.tier());
        fs.metrics().freeFailed();
        IOException io =
            e instanceof IOException x
                ? x
                : new IOException(
                    "sponge file " + name + ": freeing " + tier.tier() + " failed", e);
        if (first == null) {
          first = io;
        } else {
          first.addSuppressed(io);
        }
      }
    }
    fs.metrics().freeTime(System.nanoTime() - start);
    return first;
  }

  private void logFailure(IOException failed) {
    if (failed != null) {
      LOG.warn(
          "sponge file {}: could not free every chunk; sponge servers reclaim memory chunks once"
              + " this task's owner lease lapses",
          name,
          failed);
    }
  }

  @Override
  public String toString() {
    return "SpongeFile[" + name + "]";
  }

  // --- called by the streams ---

  synchronized int reserveSlot() {
    chunks.add(null);
    return chunks.size() - 1;
  }

  synchronized void fillSlot(int seq, StoredChunk chunk) {
    chunks.set(seq, chunk);
  }

  synchronized void writeFinished(long bytes) throws IOException {
    if (state != State.WRITING) {
      throw new IOException("sponge file " + name + " was deleted while being written");
    }
    if (chunks.contains(null)) {
      throw new IllegalStateException("sponge file " + name + " sealed with an unplaced chunk");
    }
    length = bytes;
    state = State.WRITTEN;
  }

  synchronized void writeFailed(Exception e) {
    if (state == State.WRITING) {
      state = State.FAILED;
    }
  }

  synchronized void readerClosed(SpongeInputStream r) {
    readers.remove(r);
  }

  private void requireState(State expected, String action) {
    if (state != expected) {
      throw new IllegalStateException(
          "sponge file "
              + name
              + " cannot be "
              + action
              + " now: it is "
              + state.name().toLowerCase(java.util.Locale.ROOT)
              + (state == State.FAILED ? " (its write failed)" : ""));
    }
  }
}
