package dev.levee.bench.gen;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer that records are formatted into without allocating: decimal numbers,
 * fixed-width fields and random printable text are appended directly as ASCII bytes.
 */
public final class RecordBuffer {
  /** 64 printable characters, none of them a TSV separator, so six random bits pick one. */
  private static final byte[] TEXT_ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
          .getBytes(StandardCharsets.US_ASCII);

  private byte[] bytes;
  private int size;

  public RecordBuffer(int initialCapacity) {
    bytes = new byte[Math.max(16, initialCapacity)];
  }

  public int size() {
    return size;
  }

  public void clear() {
    size = 0;
  }

  public byte[] array() {
    return bytes;
  }

  public RecordBuffer append(byte b) {
    ensure(1);
    bytes[size++] = b;
    return this;
  }

  public RecordBuffer append(char c) {
    return append((byte) c);
  }

  public RecordBuffer tab() {
    return append((byte) '\t');
  }

  public RecordBuffer newline() {
    return append((byte) '\n');
  }

  /** Appends an ASCII string; callers only pass ASCII (names, words and numbers generated here). */
  public RecordBuffer ascii(CharSequence s) {
    int len = s.length();
    ensure(len);
    for (int i = 0; i < len; i++) {
      bytes[size++] = (byte) s.charAt(i);
    }
    return this;
  }

  public RecordBuffer ascii(byte[] s) {
    ensure(s.length);
    System.arraycopy(s, 0, bytes, size, s.length);
    size += s.length;
    return this;
  }

  public RecordBuffer decimal(long v) {
    if (v < 0) {
      if (v == Long.MIN_VALUE) {
        return ascii(Long.toString(v));
      }
      append('-');
      v = -v;
    }
    return zeroPadded(v, digits(v));
  }

  /** {@code v} in exactly {@code width} decimal digits, left-padded with zeros; v must fit. */
  public RecordBuffer zeroPadded(long v, int width) {
    if (v < 0 || digits(v) > width) {
      throw new IllegalArgumentException(v + " does not fit in " + width + " digits");
    }
    ensure(width);
    for (int i = size + width - 1; i >= size; i--) {
      bytes[i] = (byte) ('0' + (v % 10));
      v /= 10;
    }
    size += width;
    return this;
  }

  /** A decimal fraction in [0, 1] with three digits after the point, e.g. 0.042. */
  public RecordBuffer fraction3(double v) {
    long thousandths = Math.round(Math.max(0, Math.min(1, v)) * 1000);
    decimal(thousandths / 1000);
    append('.');
    return zeroPadded(thousandths % 1000, 3);
  }

  public RecordBuffer hex(long v, int width) {
    ensure(width);
    for (int i = size + width - 1; i >= size; i--) {
      bytes[i] = (byte) Character.forDigit((int) (v & 0xF), 16);
      v >>>= 4;
    }
    size += width;
    return this;
  }

  /** {@code length} random characters from a 64-letter printable alphabet, ten per random long. */
  public RecordBuffer randomText(SplitMix64 rng, int length) {
    ensure(length);
    int i = 0;
    while (i < length) {
      long r = rng.nextLong();
      for (int k = 0; k < 10 && i < length; k++, i++) {
        bytes[size++] = TEXT_ALPHABET[(int) (r & 63)];
        r >>>= 6;
      }
    }
    return this;
  }

  public void writeTo(OutputStream out) throws IOException {
    out.write(bytes, 0, size);
  }

  public String toString() {
    return new String(bytes, 0, size, StandardCharsets.US_ASCII);
  }

  public static int digits(long v) {
    int d = 1;
    while (v >= 10) {
      v /= 10;
      d++;
    }
    return d;
  }

  private void ensure(int extra) {
    if (size + extra > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + extra));
    }
  }
}
