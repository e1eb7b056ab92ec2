package dev.levee.themis.map;

import dev.levee.themis.records.FramedRecord;
import dev.levee.themis.records.IntList;
import dev.levee.themis.records.LongList;
import dev.levee.themis.records.RecordPages;

/**
 * Where a map keeps its output until it writes it: framed records appended to large slabs in the
 * order they were collected, with a pointer and a partition per record. A record never straddles
 * two slabs; one larger than a slab gets a slab of its own size.
 *
 * <p>The paper's phase one chains records per partition as they arrive, because its writer runs
 * while records stream in. A Hadoop map writes file.out once, at its end, so Themis appends
 * everything to one arena and groups records by partition with a counting sort at flush time
 * ({@link PartitionIndex}): no per-partition buffer is half empty, so ten thousand partitions cost
 * no more memory than one.
 */
final class RecordArena {
  /** Index memory per record: its pointer, its partition, and its pointer again once grouped. */
  static final int INDEX_BYTES_PER_RECORD = 8 + 4 + 8;

  private final int slabSize;
  private final RecordPages pages = new RecordPages();
  private final LongList pointers = new LongList();
  private final IntList partitions = new IntList();
  private byte[] slab;
  private int slabIndex = -1;
  private int fill;
  private long framedBytes;

  RecordArena(int slabSize) {
    this.slabSize = slabSize;
  }

  /** The slab size for a buffer: a sixteenth of it, between 4 KiB and 64 MiB. */
  static int slabSizeFor(long budget) {
    return (int) Math.max(4L << 10, Math.min(64L << 20, budget / 16));
  }

  /** Heap this arena holds: slab capacity plus the index. */
  long footprint() {
    return pages.bytes() + records() * INDEX_BYTES_PER_RECORD;
  }

  /** What {@link #footprint()} would be after appending a record of {@code framed} bytes. */
  long footprintWith(int framed) {
    long slabs = pages.bytes();
    if (slab == null || fill + framed > slab.length) {
      slabs += Math.max(slabSize, framed);
    }
    return slabs + (records() + 1) * INDEX_BYTES_PER_RECORD;
  }

  void append(int partition, byte[] keyAndValue, int keyLength, int valueLength) {
    int framed = FramedRecord.framedLength(keyLength, valueLength);
    if (slab == null || fill + framed > slab.length) {
      slab = new byte[Math.max(slabSize, framed)];
      slabIndex = pages.add(slab);
      fill = 0;
    }
    int start = fill;
    int pos = FramedRecord.writeHeader(slab, start, keyLength, valueLength);
    System.arraycopy(keyAndValue, 0, slab, pos, keyLength + valueLength);
    fill = pos + keyLength + valueLength;
    pointers.add(RecordPages.pointer(slabIndex, start));
    partitions.add(partition);
    framedBytes += framed;
  }

  long records() {
    return pointers.size();
  }

  /** Bytes of the framed records (what file.out holds of them before compression). */
  long framedBytes() {
    return framedBytes;
  }

  RecordPages pages() {
    return pages;
  }

  /** Groups the records by partition, keeping collection order within each. */
  PartitionIndex index(int numPartitions) {
    return PartitionIndex.group(pointers, partitions, numPartitions);
  }

  void clear() {
    pages.clear();
    pointers.clear();
    partitions.clear();
    slab = null;
    slabIndex = -1;
    fill = 0;
    framedBytes = 0;
  }
}
