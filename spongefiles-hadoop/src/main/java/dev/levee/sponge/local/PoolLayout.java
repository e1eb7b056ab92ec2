package dev.levee.sponge.local;

/**
 * Byte layout of the pool's metadata file. The file starts with a one-page header, then holds one
 * fixed-size entry per chunk. Chunk data lives in separate segment files so that each mapping stays
 * under 2 GiB (a Java mapping limit) and under the 1 GiB segment size operators expect to see on
 * tmpfs.
 */
final class PoolLayout {
  /** "LEVEESPG" in ASCII. */
  static final long MAGIC = 0x4C45564545535047L;

  static final int VERSION = 1;

  static final int MAGIC_OFFSET = 0;
  static final int VERSION_OFFSET = 8;
  static final int CHUNK_SIZE_OFFSET = 12;
  static final int CHUNK_COUNT_OFFSET = 16;
  static final int CHUNKS_PER_SEGMENT_OFFSET = 20;
  static final int ENTRY_BYTES_OFFSET = 24;

  /**
   * Lock word: 0 when free, else (holder pid << 32 | per-acquisition token). 8-byte aligned for
   * CAS.
   */
  static final int LOCK_OFFSET = 32;

  static final int FREE_COUNT_OFFSET = 40;

  /**
   * Where the next free-entry scan starts, so that allocation is not quadratic in a filling pool.
   */
  static final int NEXT_FIT_OFFSET = 44;

  /**
   * How many times a dead holder's lock was broken; kept for operators, never read by the
   * algorithm.
   */
  static final int LOCK_BREAKS_OFFSET = 48;

  static final int HEADER_BYTES = 4096;

  /**
   * Entry: pid (0 = free), allocation time in epoch millis, host length, host bytes; padded to 8
   * bytes.
   */
  static final int ENTRY_PID = 0;

  static final int ENTRY_TIME = 8;
  static final int ENTRY_HOST_LEN = 16;
  static final int ENTRY_HOST = 18;
  static final int ENTRY_BYTES = align8(ENTRY_HOST + ChunkOwner.MAX_HOST_BYTES);

  static final long MAX_SEGMENT_BYTES = 1L << 30;

  private PoolLayout() {}

  static int align8(int n) {
    return (n + 7) & ~7;
  }

  static long metadataBytes(int chunkCount) {
    return HEADER_BYTES + (long) chunkCount * ENTRY_BYTES;
  }

  static int entryOffset(int chunk) {
    return HEADER_BYTES + chunk * ENTRY_BYTES;
  }

  static int chunksPerSegment(int chunkSize) {
    return (int) (MAX_SEGMENT_BYTES / chunkSize);
  }
}
