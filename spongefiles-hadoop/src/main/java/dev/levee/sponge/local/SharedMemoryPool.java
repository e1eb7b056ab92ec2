package dev.levee.sponge.local;

import java.io.Closeable;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The node's memory sponge: fixed-size chunks in memory-mapped files (tmpfs, {@code /dev/shm} by
 * default) that every task on the node and the node's sponge server map at once.
 *
 * <p>Files in the pool directory: {@code pool.meta} (a validated header, the cross-process lock
 * word, and one entry per chunk naming its owner or marking it free) and {@code segment-NNNNN}
 * (chunk data, at most 1 GiB each). The metadata is touched only by {@link #allocate}, {@link
 * #free}, {@link #ownerOf} and {@link #reclaim}; reads and writes of chunk data go straight to the
 * mapping, with no lock, because a chunk has exactly one owner.
 *
 * <p>Crash safety: an entry becomes owned when its pid word is written (after the host), and free
 * when the pid is cleared, so a holder killed inside the critical section leaves every entry either
 * free or owned by the dead pid (reclaimed later). The free counter may be off by one; whoever
 * breaks the dead holder's lock recounts it.
 *
 * <p>Thread-safe. Instances in several threads, several pools objects in one JVM and several
 * processes may all use the same directory. Mappings are released by the garbage collector after
 * {@link #close()} (unmapping explicitly while another thread might still copy would crash the
 * JVM).
 */
public final class SharedMemoryPool implements Closeable {
  public static final Path DEFAULT_DIR = Path.of("/dev/shm/levee-sponge");
  static final String META_FILE = "pool.meta";

  private static final VarHandle LONGS =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
  private static final VarHandle INTS =
      MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

  /**
   * FileLock is per JVM: two pool objects in one JVM opening at once must also exclude each other.
   */
  private static final Object OPEN_MONITOR = new Object();

  /** Longest wait for the metadata lock; a holder that does not run costs this, not a freeze. */
  private static final long LOCK_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

  private volatile long lockWaitNanos = LOCK_WAIT_NANOS;

  private final PoolDirectory trusted;
  private final Path dir;
  private final int chunkSize;
  private final int chunkCount;
  private final int chunksPerSegment;
  private final MappedByteBuffer meta;
  private final MappedByteBuffer[] segments;
  private final CrossProcessLock lock;

  /** Identity (device, inode) of the pool.meta this object maps, to notice it being replaced. */
  private final Object metaKey;

  /** Why this pool must not hand out chunks any more, or null while it is sound. */
  private volatile String damage;

  private volatile boolean closed;

  /** Whether this object took this JVM's owner lease (on its first allocation for this JVM). */
  private boolean leaseTaken;

  private SharedMemoryPool(
      PoolDirectory trusted,
      int chunkSize,
      int chunkCount,
      MappedByteBuffer meta,
      MappedByteBuffer[] segments)
      throws IOException {
    this.trusted = trusted;
    this.dir = trusted.path();
    this.metaKey = metaFileKey(dir);
    this.chunkSize = chunkSize;
    this.chunkCount = chunkCount;
    this.chunksPerSegment = PoolLayout.chunksPerSegment(chunkSize);
    this.meta = meta;
    this.segments = segments;
    this.lock = new CrossProcessLock(meta, deadPid -> recountFree());
  }

  /**
   * Creates the pool in {@code dir}, or attaches to the one already there. Every process that
   * attaches must ask for the same geometry; a mismatch fails with an {@link IOException} that
   * names both.
   *
   * @param capacityBytes total chunk memory; rounded down to whole chunks
   * @param chunkSize bytes per chunk, 4 KiB .. 1 GiB
   */
  public static SharedMemoryPool open(Path dir, long capacityBytes, int chunkSize)
      throws IOException {
    return open(dir, capacityBytes, chunkSize, PoolDirectory.currentUser());
  }

  /**
   * {@link #open(Path, long, int)} with the user the pool directory and its files must belong to
   * ({@link PoolDirectory#secure}); a directory of anyone else, or one others can write, is
   * refused.
   */
  public static SharedMemoryPool open(
      Path dir, long capacityBytes, int chunkSize, UserPrincipal expectedOwner) throws IOException {
    return open(dir, capacityBytes, chunkSize, expectedOwner, null, true);
  }

  /**
   * Attaches to the pool its node's sponge server made, never creating one: a task on a node whose
   * server serves the pool calls this, so that a pool directory deleted under the running server
   * (issue 13) cannot make the task start a second pool that no server serves (the node split in
   * two: chunks no collector reclaims, and tasks that do not see each other's memory). The task
   * falls back to its next tier instead, with this message as the reason.
   *
   * @throws IOException naming the directory when there is no initialised pool in it
   */
  public static SharedMemoryPool attach(Path dir, long capacityBytes, int chunkSize)
      throws IOException {
    Objects.requireNonNull(dir, "dir");
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
        || !Files.exists(dir.resolve(META_FILE), LinkOption.NOFOLLOW_LINKS)) {
      throw noPool(dir, "there is no " + dir.resolve(META_FILE));
    }
    return open(dir, capacityBytes, chunkSize, PoolDirectory.currentUser(), null, false);
  }

  private static IOException noPool(Path dir, String what) {
    return new IOException(
        "no sponge pool to attach in "
            + dir
            + ": "
            + what
            + "; only this node's sponge server creates its pool (if the directory was deleted"
            + " under the running server, restart the server to start a new pool)");
  }

  /**
   * Opens the pool as its server, which holds {@code serverLock} on it: only the server may start a
   * pool afresh while others may still map the old one (see {@link ServerLock}).
   */
  public static SharedMemoryPool openAsServer(
      ServerLock serverLock, long capacityBytes, int chunkSize) throws IOException {
    Objects.requireNonNull(serverLock, "serverLock");
    return open(
        serverLock.directory(),
        capacityBytes,
        chunkSize,
        PoolDirectory.currentUser(),
        serverLock,
        true);
  }

  private static SharedMemoryPool open(
      Path dir,
      long capacityBytes,
      int chunkSize,
      UserPrincipal expectedOwner,
      ServerLock serverLock,
      boolean mayCreate)
      throws IOException {
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(expectedOwner, "expectedOwner");
    if (chunkSize < 4096 || chunkSize > PoolLayout.MAX_SEGMENT_BYTES) {
      throw new IllegalArgumentException(
          "sponge pool chunk size must be in 4096.."
              + PoolLayout.MAX_SEGMENT_BYTES
              + " bytes, got "
              + chunkSize);
    }
    long count = capacityBytes / chunkSize;
    long maxChunks = (Integer.MAX_VALUE - PoolLayout.HEADER_BYTES) / PoolLayout.ENTRY_BYTES;
    if (count < 1 || count > maxChunks) {
      throw new IllegalArgumentException(
          "sponge pool capacity must hold 1.."
              + maxChunks
              + " chunks of "
              + chunkSize
              + " bytes, got "
              + capacityBytes
              + " bytes");
    }
    int chunkCount = (int) count;
    PoolDirectory trusted = PoolDirectory.secure(dir, expectedOwner);
    synchronized (OPEN_MONITOR) {
      try (FileChannel metaChannel = trusted.open(META_FILE, mayCreate);
          FileLock ignored = metaChannel.lock()) {
        // The file lock only serialises creation: the OS drops it if the creator dies, so a
        // half-made pool (no
        // magic yet) is simply made again by the next opener.
        long metaBytes = PoolLayout.metadataBytes(chunkCount);
        boolean initialized =
            metaChannel.size() >= PoolLayout.HEADER_BYTES && readMagic(metaChannel) != 0;
        if (!initialized) {
          if (!mayCreate) {
            throw noPool(dir, dir.resolve(META_FILE) + " is not an initialised pool");
          }
          if (serverLock == null && ServerLock.heldByAnyone(trusted)) {
            // A live server maps this pool (and so may tasks): a new pool.meta would hand its
            // chunks out a second time, to other owners. Only the server may start a pool afresh.
            throw new IOException(
                "sponge pool "
                    + trusted.path()
                    + " has no valid "
                    + META_FILE
                    + " but a sponge server is serving it: refusing to re-create a pool that is"
                    + " still mapped (it was deleted under the running server?); restart this"
                    + " node's sponge server to start a new pool");
          }
          checkSpace(dir, (long) chunkCount * chunkSize + metaBytes);
          createSegments(trusted, chunkCount, chunkSize);
          metaChannel.truncate(0);
          MappedByteBuffer meta = metaChannel.map(FileChannel.MapMode.READ_WRITE, 0, metaBytes);
          meta.order(ByteOrder.nativeOrder());
          meta.putInt(PoolLayout.VERSION_OFFSET, PoolLayout.VERSION);
          meta.putInt(PoolLayout.CHUNK_SIZE_OFFSET, chunkSize);
          meta.putInt(PoolLayout.CHUNK_COUNT_OFFSET, chunkCount);
          meta.putInt(PoolLayout.CHUNKS_PER_SEGMENT_OFFSET, PoolLayout.chunksPerSegment(chunkSize));
          meta.putInt(PoolLayout.ENTRY_BYTES_OFFSET, PoolLayout.ENTRY_BYTES);
          INTS.setVolatile(meta, PoolLayout.FREE_COUNT_OFFSET, chunkCount);
          LONGS.setVolatile(meta, PoolLayout.MAGIC_OFFSET, PoolLayout.MAGIC);
          return new SharedMemoryPool(
              trusted, chunkSize, chunkCount, meta, mapSegments(trusted, chunkCount, chunkSize));
        }
        MappedByteBuffer header =
            metaChannel.map(FileChannel.MapMode.READ_WRITE, 0, PoolLayout.HEADER_BYTES);
        header.order(ByteOrder.nativeOrder());
        validateHeader(dir, header, chunkSize, chunkCount);
        if (metaChannel.size() < metaBytes) {
          throw new IOException(
              "sponge pool metadata "
                  + dir.resolve(META_FILE)
                  + " is truncated: "
                  + metaChannel.size()
                  + " bytes, expected "
                  + metaBytes);
        }
        MappedByteBuffer meta = metaChannel.map(FileChannel.MapMode.READ_WRITE, 0, metaBytes);
        meta.order(ByteOrder.nativeOrder());
        return new SharedMemoryPool(
            trusted, chunkSize, chunkCount, meta, mapSegments(trusted, chunkCount, chunkSize));
      }
    }
  }

  public Path directory() {
    return dir;
  }

  public int chunkSize() {
    return chunkSize;
  }

  public int chunkCount() {
    return chunkCount;
  }

  /** Free chunks right now (a racy snapshot: other processes allocate concurrently). */
  public int freeChunks() {
    ensureOpen();
    return (int) INTS.getVolatile(meta, PoolLayout.FREE_COUNT_OFFSET);
  }

  /**
   * Checks that {@code pool.meta} in the directory is still the file this object maps. If it was
   * deleted or replaced, other processes no longer share this pool's bookkeeping, so chunks handed
   * out from here could be handed out there too: the pool stops allocating ({@link #allocate}
   * answers "full", so writers go to the next tier) and reports why in {@link #damage()}. Reads and
   * frees of chunks already held still work.
   */
  public Optional<String> checkIntact() {
    if (damage == null) {
      Object now;
      try {
        now = metaFileKey(dir);
      } catch (IOException e) {
        now = null;
      }
      if (!metaKey.equals(now)) {
        damage =
            dir.resolve(META_FILE)
                + (now == null ? " was deleted" : " was replaced by another file")
                + " while this pool was in use; no chunk is allocated from it any more";
      }
    }
    segmentsIntact();
    return damage();
  }

  /**
   * Whether every segment file still has its full length. The pool's memory is allocated when the
   * pool is created, so the only way a mapped chunk can lose its memory (and fault with SIGBUS,
   * which the JVM raises as an InternalError at some later point of the thread) is a segment cut
   * short under the mapping. One stat per segment (a few for a multi-GiB pool) per chunk allocated.
   */
  private boolean segmentsIntact() {
    for (int s = 0; s < segments.length; s++) {
      Path path = segmentPath(dir, s);
      long size;
      try {
        size =
            Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).size();
      } catch (IOException e) {
        size = -1;
      }
      if (size < segments[s].capacity()) {
        damage =
            path
                + (size < 0 ? " is gone" : " was cut to " + size + " bytes")
                + " while this pool was in use; no chunk is allocated from it any more";
        return false;
      }
    }
    return true;
  }

  /** Why this pool stopped allocating, if it did (see {@link #checkIntact()}). */
  public Optional<String> damage() {
    return Optional.ofNullable(damage);
  }

  /** Takes a free chunk for {@code owner}; empty when the pool is full. */
  public OptionalInt allocate(ChunkOwner owner) {
    Objects.requireNonNull(owner, "owner");
    ensureOpen();
    if (damage != null
        || !segmentsIntact()
        || (owner.pid() == ChunkOwner.selfId() && !takeLease())) {
      return OptionalInt.empty();
    }
    // A full pool is the common case for a busy node; answer it without touching the lock.
    if ((int) INTS.getVolatile(meta, PoolLayout.FREE_COUNT_OFFSET) <= 0) {
      return OptionalInt.empty();
    }
    byte[] host = owner.host().getBytes(StandardCharsets.UTF_8);
    long word = lock.lockUnlessStuck(lockWaitNanos);
    if (word == 0L) {
      return OptionalInt.empty(); // the lock's holder does not run: no room here, next tier
    }
    try {
      int free = (int) INTS.getVolatile(meta, PoolLayout.FREE_COUNT_OFFSET);
      if (free <= 0) {
        return OptionalInt.empty();
      }
      int start = meta.getInt(PoolLayout.NEXT_FIT_OFFSET);
      if (start < 0 || start >= chunkCount) {
        start = 0;
      }
      for (int i = 0; i < chunkCount; i++) {
        int chunk = start + i < chunkCount ? start + i : start + i - chunkCount;
        int entry = PoolLayout.entryOffset(chunk);
        if ((long) LONGS.getVolatile(meta, entry + PoolLayout.ENTRY_PID) == 0L) {
          meta.putLong(entry + PoolLayout.ENTRY_TIME, System.currentTimeMillis());
          meta.putShort(entry + PoolLayout.ENTRY_HOST_LEN, (short) host.length);
          meta.put(entry + PoolLayout.ENTRY_HOST, host);
          LONGS.setVolatile(
              meta, entry + PoolLayout.ENTRY_PID, owner.pid()); // commits the allocation
          INTS.setVolatile(meta, PoolLayout.FREE_COUNT_OFFSET, free - 1);
          meta.putInt(PoolLayout.NEXT_FIT_OFFSET, chunk + 1 == chunkCount ? 0 : chunk + 1);
          return OptionalInt.of(chunk);
        }
      }
      // The counter said free but no entry is: it drifted (never expected); repair it for the next
      // caller.
      INTS.setVolatile(meta, PoolLayout.FREE_COUNT_OFFSET, 0);
      return OptionalInt.empty();
    } finally {
      lock.unlock(word);
    }
  }

  /**
   * Returns {@code chunk} to the pool.
   *
   * @throws IllegalStateException when the chunk is free or owned by someone other than {@code
   *     expectedOwner}
   */
  public void free(int chunk, ChunkOwner expectedOwner) {
    Objects.requireNonNull(expectedOwner, "expectedOwner");
    checkChunk(chunk);
    ensureOpen();
    long word = lockOrFail();
    try {
      ChunkOwner actual = readOwner(chunk);
      if (!expectedOwner.equals(actual)) {
        throw new IllegalStateException(
            "cannot free sponge chunk "
                + chunk
                + " in "
                + dir
                + " for "
                + expectedOwner
                + ": it is "
                + (actual == null ? "already free" : "owned by " + actual));
      }
      clearEntry(chunk);
    } finally {
      lock.unlock(word);
    }
  }

  /** The chunk's owner, or {@code null} when it is free. */
  public ChunkOwner ownerOf(int chunk) {
    checkChunk(chunk);
    ensureOpen();
    long word = lockOrFail();
    try {
      return readOwner(chunk);
    } finally {
      lock.unlock(word);
    }
  }

  /**
   * Every allocated chunk and its owner (one locked pass; for the sponge server's reports and for
   * tests).
   */
  public Map<Integer, ChunkOwner> owners() {
    ensureOpen();
    Map<Integer, ChunkOwner> owners = new HashMap<>();
    long word = lockOrFail();
    try {
      for (int chunk = 0; chunk < chunkCount; chunk++) {
        ChunkOwner owner = readOwner(chunk);
        if (owner != null) {
          owners.put(chunk, owner);
        }
      }
    } finally {
      lock.unlock(word);
    }
    return owners;
  }

  /**
   * Frees every chunk whose owner {@code isDead} says is gone, and returns how many were freed. The
   * predicate runs once per distinct owner and outside the lock (it may ask another node's server),
   * so a slow answer never stalls allocation on this node; a chunk is freed only if it still
   * belongs to the owner that was judged dead.
   */
  public int reclaim(Predicate<ChunkOwner> isDead) {
    Objects.requireNonNull(isDead, "isDead");
    Map<ChunkOwner, List<Integer>> byOwner = new HashMap<>();
    owners()
        .forEach(
            (chunk, owner) -> byOwner.computeIfAbsent(owner, o -> new ArrayList<>()).add(chunk));
    List<Map.Entry<ChunkOwner, List<Integer>>> dead = new ArrayList<>();
    for (Map.Entry<ChunkOwner, List<Integer>> e : byOwner.entrySet()) {
      if (isDead.test(e.getKey())) {
        dead.add(e);
      }
    }
    if (dead.isEmpty()) {
      return 0;
    }
    int freed = 0;
    long word = lockOrFail();
    try {
      for (Map.Entry<ChunkOwner, List<Integer>> e : dead) {
        for (int chunk : e.getValue()) {
          if (e.getKey().equals(readOwner(chunk))) {
            clearEntry(chunk);
            freed++;
          }
        }
      }
    } finally {
      lock.unlock(word);
    }
    return freed;
  }

  /**
   * Copies {@code src} (position..limit, at most one chunk) to the start of {@code chunk}; advances
   * src.
   */
  public void write(int chunk, ByteBuffer src) {
    checkChunk(chunk);
    int length = src.remaining();
    checkLength(0, length);
    ensureOpen();
    segmentOf(chunk).put(offsetInSegment(chunk), src, src.position(), length);
    src.position(src.limit());
  }

  /** Copies the first {@code length} bytes of {@code chunk} into {@code dst}; advances dst. */
  public void read(int chunk, int length, ByteBuffer dst) {
    read(chunk, 0, length, dst);
  }

  /**
   * Copies {@code length} bytes starting at {@code offset} within {@code chunk} into {@code dst};
   * advances dst.
   */
  public void read(int chunk, int offset, int length, ByteBuffer dst) {
    checkChunk(chunk);
    checkLength(offset, length);
    if (dst.remaining() < length) {
      throw new IllegalArgumentException(
          "destination has room for " + dst.remaining() + " bytes, asked to read " + length);
    }
    ensureOpen();
    dst.put(dst.position(), segmentOf(chunk), offsetInSegment(chunk) + offset, length);
    dst.position(dst.position() + length);
  }

  /**
   * Copies {@code length} bytes starting at {@code offset} within {@code chunk} into {@code dst} at
   * {@code dstOffset}. Allocates nothing: a merge reads a run in pieces as small as one byte, and
   * even a view per call adds up.
   */
  public void read(int chunk, int offset, byte[] dst, int dstOffset, int length) {
    checkChunk(chunk);
    checkLength(offset, length);
    java.util.Objects.checkFromIndexSize(dstOffset, length, dst.length);
    ensureOpen();
    segmentOf(chunk).get(offsetInSegment(chunk) + offset, dst, dstOffset, length);
  }

  /**
   * A writable view of the whole chunk (position 0, limit chunk size), for a holder that fills its
   * chunk in place instead of staging the bytes elsewhere first. The view stays valid after {@link
   * #free}: only use it while the chunk is yours.
   */
  public ByteBuffer chunkBuffer(int chunk) {
    checkChunk(chunk);
    ensureOpen();
    return segmentOf(chunk).slice(offsetInSegment(chunk), chunkSize);
  }

  /**
   * Takes the metadata lock for an operation that cannot just answer "no room": waits at most the
   * lock wait, then fails with a message naming the holder instead of freezing the caller.
   */
  private long lockOrFail() {
    long word = lock.lock(lockWaitNanos);
    if (word == 0L) {
      throw new IllegalStateException(
          "sponge pool "
              + dir
              + " is locked by pid "
              + lock.holderPid()
              + " for over "
              + TimeUnit.NANOSECONDS.toMillis(lockWaitNanos)
              + " ms (a stopped process?); try again later");
    }
    return word;
  }

  /** Lock waits that ran out in this process (see {@link CrossProcessLock#lock(long)}). */
  public long lockTimeouts() {
    return lock.timeouts();
  }

  /**
   * Allocations answered "no room" at once, without waiting, because the lock's holder already made
   * a wait run out and has not run since (see {@link CrossProcessLock#lockUnlessStuck}).
   */
  public long lockSkips() {
    return lock.skips();
  }

  /** For tests: how long an operation waits for the metadata lock. */
  void lockWait(long millis) {
    lockWaitNanos = TimeUnit.MILLISECONDS.toNanos(millis);
  }

  /** Times the cross-process lock was taken over from a dead holder since the pool was created. */
  public int brokenLocks() {
    ensureOpen();
    return (int) INTS.getVolatile(meta, PoolLayout.LOCK_BREAKS_OFFSET);
  }

  /**
   * Whether a live process holds the lease of owner {@code ownerId} in this pool (see {@link
   * OwnerLeases}): the namespace-independent liveness of a local owner.
   */
  public boolean ownerLeaseHeld(long ownerId) throws IOException {
    return OwnerLeases.isHeld(trusted, ownerId);
  }

  /** Owner ids whose lease names a container id {@code containerMatches} accepts. */
  public Set<Long> ownersInContainers(Predicate<String> containerMatches) throws IOException {
    return OwnerLeases.ownersOf(dir, containerMatches::test);
  }

  /**
   * Takes this JVM's owner lease now (a task does so when it attaches its node's pool, so that it
   * counts as alive before it owns its first chunk); false if the lease file cannot be taken.
   */
  public boolean holdOwnerLease() {
    return takeLease();
  }

  /**
   * A process must hold its lease before it owns a chunk: from then on the collector sees it alive
   * until the kernel drops the lock at its death. Taken once per pool object, released by close.
   */
  private synchronized boolean takeLease() {
    if (!leaseTaken) {
      try {
        OwnerLeases.hold(trusted, ChunkOwner.selfId(), ChunkOwner.containerIdOrNull());
        leaseTaken = true;
      } catch (IOException e) {
        // Without a lease our chunks would look orphaned: take none here (the next tier will).
        return false;
      }
    }
    return true;
  }

  @Override
  public void close() {
    closed = true;
    synchronized (this) {
      if (leaseTaken) {
        leaseTaken = false;
        OwnerLeases.release(dir, ChunkOwner.selfId());
      }
    }
  }

  @Override
  public String toString() {
    return "SharedMemoryPool[" + dir + ", " + chunkCount + " x " + chunkSize + " B]";
  }

  // --- test hooks: hold the lock (to be killed while holding it) ---

  long lockForTest() {
    return lock.lock();
  }

  void unlockForTest(long word) {
    lock.unlock(word);
  }

  long lockHolderPid() {
    return lock.holderPid();
  }

  // --- internals ---

  private ChunkOwner readOwner(int chunk) {
    int entry = PoolLayout.entryOffset(chunk);
    long pid = (long) LONGS.getVolatile(meta, entry + PoolLayout.ENTRY_PID);
    if (pid == 0L) {
      return null;
    }
    int len = meta.getShort(entry + PoolLayout.ENTRY_HOST_LEN);
    byte[] host = new byte[Math.max(0, Math.min(len, ChunkOwner.MAX_HOST_BYTES))];
    meta.get(entry + PoolLayout.ENTRY_HOST, host);
    return new ChunkOwner(pid, host.length == 0 ? "?" : new String(host, StandardCharsets.UTF_8));
  }

  private void clearEntry(int chunk) {
    LONGS.setVolatile(meta, PoolLayout.entryOffset(chunk) + PoolLayout.ENTRY_PID, 0L);
    INTS.setVolatile(
        meta,
        PoolLayout.FREE_COUNT_OFFSET,
        (int) INTS.getVolatile(meta, PoolLayout.FREE_COUNT_OFFSET) + 1);
  }

  /** Runs under the lock after a dead holder's lock was broken: the counter may be one off. */
  private void recountFree() {
    int free = 0;
    for (int chunk = 0; chunk < chunkCount; chunk++) {
      if ((long) LONGS.getVolatile(meta, PoolLayout.entryOffset(chunk) + PoolLayout.ENTRY_PID)
          == 0L) {
        free++;
      }
    }
    INTS.setVolatile(meta, PoolLayout.FREE_COUNT_OFFSET, free);
  }

  private MappedByteBuffer segmentOf(int chunk) {
    return segments[chunk / chunksPerSegment];
  }

  private int offsetInSegment(int chunk) {
    return (chunk % chunksPerSegment) * chunkSize;
  }

  private void checkChunk(int chunk) {
    if (chunk < 0 || chunk >= chunkCount) {
      throw new IndexOutOfBoundsException(
          "sponge chunk " + chunk + " is outside 0.." + (chunkCount - 1));
    }
  }

  private void checkLength(int offset, int length) {
    if (offset < 0 || length < 0 || (long) offset + length > chunkSize) {
      throw new IllegalArgumentException(
          "range ["
              + offset
              + ", "
              + ((long) offset + length)
              + ") does not fit a chunk of "
              + chunkSize
              + " bytes");
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException(this + " is closed");
    }
  }

  private static Object metaFileKey(Path dir) throws IOException {
    return Files.readAttributes(
            dir.resolve(META_FILE), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
        .fileKey();
  }

  private static long readMagic(FileChannel channel) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
    channel.read(b, PoolLayout.MAGIC_OFFSET);
    return b.getLong(0);
  }

  private static void validateHeader(Path dir, ByteBuffer header, int chunkSize, int chunkCount)
      throws IOException {
    long magic = (long) LONGS.getVolatile(header, PoolLayout.MAGIC_OFFSET);
    Path file = dir.resolve(META_FILE);
    if (magic != PoolLayout.MAGIC) {
      throw new IOException(
          file + " is not a Levee sponge pool (magic " + Long.toHexString(magic) + ")");
    }
    int version = header.getInt(PoolLayout.VERSION_OFFSET);
    int entryBytes = header.getInt(PoolLayout.ENTRY_BYTES_OFFSET);
    if (version != PoolLayout.VERSION || entryBytes != PoolLayout.ENTRY_BYTES) {
      throw new IOException(
          "sponge pool "
              + file
              + " has layout version "
              + version
              + " (entry "
              + entryBytes
              + " B); this build reads version "
              + PoolLayout.VERSION
              + " (entry "
              + PoolLayout.ENTRY_BYTES
              + " B). Stop every process using it and delete "
              + dir);
    }
    int haveSize = header.getInt(PoolLayout.CHUNK_SIZE_OFFSET);
    int haveCount = header.getInt(PoolLayout.CHUNK_COUNT_OFFSET);
    if (haveSize != chunkSize || haveCount != chunkCount) {
      throw new IOException(
          "sponge pool "
              + dir
              + " holds "
              + haveCount
              + " chunks of "
              + haveSize
              + " bytes, but this process is configured for "
              + chunkCount
              + " chunks of "
              + chunkSize
              + " bytes; every process on a node must use the same levee.sponge.chunk.size and"
              + " levee.sponge.local.pool.size (or delete "
              + dir
              + " once no process uses it)");
    }
  }

  private static void checkSpace(Path dir, long needed) throws IOException {
    long usable = Files.getFileStore(dir).getUsableSpace();
    long existing = 0;
    try (var files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.getFileName().toString().startsWith("segment-")) {
          existing += Files.size(p);
        }
      }
    }
    // tmpfs files are sparse: touching a page past the file system's size kills the JVM with
    // SIGBUS, so refuse a
    // pool the mount cannot hold up front.
    if (usable + existing < needed) {
      throw new IOException(
          "sponge pool in "
              + dir
              + " needs "
              + needed
              + " bytes but its file system has only "
              + (usable + existing)
              + " bytes available; lower levee.sponge.local.pool.size or enlarge the mount");
    }
  }

  private static void createSegments(PoolDirectory dir, int chunkCount, int chunkSize)
      throws IOException {
    int perSegment = PoolLayout.chunksPerSegment(chunkSize);
    int segmentCount = (chunkCount + perSegment - 1) / perSegment;
    ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
    for (int s = 0; s < segmentCount; s++) {
      long bytes = (long) Math.min(perSegment, chunkCount - s * perSegment) * chunkSize;
      Path path = segmentPath(dir.path(), s);
      // Unlink, never truncate, an old segment: a process may still map it, and a truncated file
      // that grows again is the same inode, so its old mappings would see the new pool's chunks.
      // A new inode keeps old and new pools apart (and old bytes never leak into new chunks).
      Files.deleteIfExists(path);
      try (FileChannel ch = dir.open(segmentName(s), true, StandardOpenOption.CREATE_NEW)) {
        // Allocate every page now. A sparse file takes its pages when a chunk is first written,
        // and a tmpfs filled meanwhile by anyone answers that write with SIGBUS, which the JVM
        // raises as an InternalError at an arbitrary later point: a dead task or connection
        // thread, a leaked chunk. Written now, a full file system is one clear error at start.
        for (long pos = 0; pos < bytes; ) {
          zeros.clear().limit((int) Math.min(zeros.capacity(), bytes - pos));
          pos += ch.write(zeros, pos);
        }
      } catch (IOException e) {
        throw new IOException(
            "cannot allocate the sponge pool's memory in "
                + path
                + " ("
                + bytes
                + " bytes): "
                + e.getMessage()
                + "; lower levee.sponge.local.pool.size or free or enlarge the mount",
            e);
      }
    }
  }

  private static MappedByteBuffer[] mapSegments(PoolDirectory dir, int chunkCount, int chunkSize)
      throws IOException {
    int perSegment = PoolLayout.chunksPerSegment(chunkSize);
    int segmentCount = (chunkCount + perSegment - 1) / perSegment;
    MappedByteBuffer[] segments = new MappedByteBuffer[segmentCount];
    for (int s = 0; s < segmentCount; s++) {
      long bytes = (long) Math.min(perSegment, chunkCount - s * perSegment) * chunkSize;
      Path path = segmentPath(dir.path(), s);
      try (FileChannel ch = dir.open(segmentName(s), false)) {
        if (ch.size() < bytes) {
          throw new IOException(
              "sponge pool segment " + path + " has " + ch.size() + " bytes, expected " + bytes);
        }
        segments[s] = ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes);
      }
    }
    return segments;
  }

  private static String segmentName(int segment) {
    return String.format("segment-%05d", segment);
  }

  private static Path segmentPath(Path dir, int segment) {
    return dir.resolve(segmentName(segment));
  }
}
