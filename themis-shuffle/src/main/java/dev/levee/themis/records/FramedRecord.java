package dev.levee.themis.records;

import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;

/**
 * One record as Hadoop's IFile frames it: {@code vint keyLength, vint valueLength, key bytes, value
 * bytes}. Themis keeps records in exactly this form in memory on both sides of the shuffle, so a
 * map writes a partition by copying bytes and a reducer serves a key to the comparator without
 * copying it. Positions are offsets into a page that holds the whole record.
 */
public final class FramedRecord {
  private FramedRecord() {}

  /** Bytes of the two length prefixes of the end-of-segment marker (two vints of -1). */
  public static final int EOF_MARKER_BYTES = 2;

  public static int keyLength(byte[] page, int offset) {
    return readVInt(page, offset);
  }

  public static int keyStart(byte[] page, int offset) {
    int kLenSize = WritableUtils.decodeVIntSize(page[offset]);
    return offset + kLenSize + WritableUtils.decodeVIntSize(page[offset + kLenSize]);
  }

  public static int valueLength(byte[] page, int offset) {
    return readVInt(page, offset + WritableUtils.decodeVIntSize(page[offset]));
  }

  public static int valueStart(byte[] page, int offset) {
    return keyStart(page, offset) + keyLength(page, offset);
  }

  /** The whole framed length: both prefixes, key and value. */
  public static int length(byte[] page, int offset) {
    return valueStart(page, offset) + valueLength(page, offset) - offset;
  }

  /** Framed length of a record with these key and value lengths. */
  public static int framedLength(int keyLength, int valueLength) {
    return WritableUtils.getVIntSize(keyLength)
        + WritableUtils.getVIntSize(valueLength)
        + keyLength
        + valueLength;
  }

  /** Writes the two length prefixes at {@code pos}; returns the position after them. */
  public static int writeHeader(byte[] page, int pos, int keyLength, int valueLength) {
    pos = writeVInt(page, pos, keyLength);
    return writeVInt(page, pos, valueLength);
  }

  /** WritableUtils.writeVLong's encoding, into an array. */
  public static int writeVInt(byte[] page, int pos, int value) {
    long i = value;
    if (i >= -112 && i <= 127) {
      page[pos++] = (byte) i;
      return pos;
    }
    int len = -112;
    if (i < 0) {
      i ^= -1L;
      len = -120;
    }
    long tmp = i;
    while (tmp != 0) {
      tmp = tmp >> 8;
      len--;
    }
    page[pos++] = (byte) len;
    len = (len < -120) ? -(len + 120) : -(len + 112);
    for (int idx = len; idx != 0; idx--) {
      int shiftbits = (idx - 1) * 8;
      page[pos++] = (byte) ((i & (0xFFL << shiftbits)) >> shiftbits);
    }
    return pos;
  }

  static int readVInt(byte[] page, int offset) {
    try {
      return WritableComparator.readVInt(page, offset);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("corrupt record length at offset " + offset, e);
    }
  }
}
