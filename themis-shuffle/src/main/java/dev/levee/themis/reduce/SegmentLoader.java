package dev.levee.themis.reduce;

import dev.levee.themis.records.LongList;
import dev.levee.themis.records.RecordPages;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;

/**
 * Reads one decompressed IFile segment into memory as framed records in chunks of at most {@code
 * chunkLimit} bytes, and notes a pointer per record. Chunks are read in bulk and parsed in place; a
 * record cut by the end of a chunk moves to the start of the next, so no record straddles two
 * chunks, and one larger than the limit gets a chunk of exactly its size. The last chunk is sized
 * to what is left, so holding a segment costs its size plus 8 bytes per record.
 */
final class SegmentLoader {
  /** Told when a segment alone has outgrown the memory it may use; clears what it is given. */
  interface OwnSpill {
    void spill(RecordPages pages, LongList pointers) throws IOException;
  }

  private final int chunkLimit;
  private final long spillAbove;
  private final OwnSpill ownSpill;
  private final RecordPages pages = new RecordPages();
  private final LongList pointers = new LongList();
  private long records;
  private boolean spilled;

  /**
   * @param spillAbove footprint beyond which the records loaded so far are handed to {@code
   *     ownSpill} (only a segment larger than the reducer's whole budget gets there)
   */
  SegmentLoader(int chunkLimit, long spillAbove, OwnSpill ownSpill) {
    this.chunkLimit = chunkLimit;
    this.spillAbove = spillAbove;
    this.ownSpill = ownSpill;
  }

  /**
   * Reads exactly {@code rawLength} bytes (the records and the end marker) from {@code in}.
   *
   * @throws IOException if the stream ends early, a length is corrupt, or the marker is missing
   */
  void load(InputStream in, long rawLength, String what) throws IOException {
    long remaining = rawLength;
    byte[] chunk = new byte[(int) Math.min(chunkLimit, Math.max(1, remaining))];
    int chunkIndex = pages.add(chunk);
    long chunkRecords = 0;
    int fill = 0;
    int parsed = 0;
    boolean eof = false;
    while (true) {
      int n = (int) Math.min(chunk.length - fill, remaining);
      if (n > 0) {
        readFully(in, chunk, fill, n, rawLength - remaining, rawLength, what);
        fill += n;
        remaining -= n;
      }
      // Parse every complete record now in the chunk.
      int need = 0;
      while (parsed < fill) {
        int kls = WritableUtils.decodeVIntSize(chunk[parsed]);
        if (parsed + kls >= fill) {
          need = kls + 1;
          break;
        }
        int vls = WritableUtils.decodeVIntSize(chunk[parsed + kls]);
        if (parsed + kls + vls > fill) {
          need = kls + vls;
          break;
        }
        int keyLength = WritableComparator.readVInt(chunk, parsed);
        int valueLength = WritableComparator.readVInt(chunk, parsed + kls);
        if (keyLength == -1 && valueLength == -1) {
          if (parsed + kls + vls != fill || remaining != 0) {
            throw new IOException(
                what
                    + " has IFile's end marker "
                    + (rawLength - remaining - fill + parsed)
                    + " bytes in, before its end at "
                    + rawLength);
          }
          eof = true;
          parsed = fill;
          break;
        }
        if (keyLength < 0 || valueLength < 0) {
          throw new IOException(
              what
                  + ": corrupt record lengths "
                  + keyLength
                  + "/"
                  + valueLength
                  + " at byte "
                  + (rawLength - remaining - fill + parsed));
        }
        long total = (long) kls + vls + keyLength + valueLength;
        if (total > Integer.MAX_VALUE - 16) {
          throw new IOException(what + ": a record of " + total + " bytes cannot be held");
        }
        if (parsed + total > fill) {
          need = (int) total;
          break;
        }
        pointers.add(RecordPages.pointer(chunkIndex, parsed));
        chunkRecords++;
        records++;
        parsed += (int) total;
      }
      if (eof) {
        break;
      }
      if (remaining == 0) {
        throw new IOException(what + " ended without IFile's end marker");
      }
      // The chunk is full, or ends in a partial record: carry that record into a new chunk.
      int carry = fill - parsed;
      long needed = Math.max(need, carry);
      if (needed > carry + remaining) {
        throw new IOException(
            what
                + ": a record needs "
                + needed
                + " bytes but only "
                + (carry + remaining)
                + " remain");
      }
      int size = (int) Math.max(needed, Math.min(chunkLimit, carry + remaining));
      byte[] next = new byte[size];
      System.arraycopy(chunk, parsed, next, 0, carry);
      if (chunkRecords == 0) {
        pages.replaceLast(next);
      } else {
        maybeSpill();
        chunkIndex = pages.add(next);
      }
      chunk = next;
      chunkRecords = 0;
      fill = carry;
      parsed = 0;
    }
    if (chunkRecords == 0) {
      pages.removeLast();
    }
  }

  private static void readFully(
      InputStream in, byte[] b, int off, int len, long before, long total, String what)
      throws IOException {
    int done = 0;
    while (done < len) {
      int n = in.read(b, off + done, len - done);
      if (n < 0) {
        throw new EOFException(
            what + " ended after " + (before + done) + " of " + total + " bytes");
      }
      done += n;
    }
  }

  private void maybeSpill() throws IOException {
    if (ownSpill != null && footprint() > spillAbove && !pointers.isEmpty()) {
      ownSpill.spill(pages, pointers);
      spilled = true;
    }
  }

  RecordPages pages() {
    return pages;
  }

  LongList pointers() {
    return pointers;
  }

  long records() {
    return records;
  }

  /** Heap held: chunk capacity plus a pointer per record still held. */
  long footprint() {
    return pages.bytes() + pointers.size() * Long.BYTES;
  }

  /** Whether some of this segment already went to a run (an abort then cannot be undone). */
  boolean spilled() {
    return spilled;
  }
}
