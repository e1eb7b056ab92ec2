package dev.levee.piranha.exchange;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A batch of serialized records a parent pushed in one go, sorted by the receiving stage's
 * comparator or not, held in memory or in a file. Counts travel with it so a receiver can check
 * what arrived against what was sent.
 */
public final class Run {
  /** Opens a file-backed run's bytes. */
  @FunctionalInterface
  public interface Opener {
    InputStream open() throws IOException;
  }

  private final byte[] data;
  private final int length;
  private final Path file;
  private final Opener opener;
  private final long bytes;
  private final long records;
  private final boolean sorted;

  private Run(
      byte[] data, int length, Path file, Opener opener, long bytes, long records, boolean sorted) {
    this.data = data;
    this.length = length;
    this.file = file;
    this.opener = opener;
    this.bytes = bytes;
    this.records = records;
    this.sorted = sorted;
  }

  public static Run inMemory(byte[] data, int length, long records, boolean sorted) {
    Objects.checkFromIndexSize(0, length, data.length);
    return new Run(data, length, null, null, length, records, sorted);
  }

  public static Run inFile(Path file, long bytes, long records, boolean sorted) {
    return new Run(
        null,
        0,
        file,
        () -> new BufferedInputStream(Files.newInputStream(file), 64 << 10),
        bytes,
        records,
        sorted);
  }

  /** A run stored elsewhere (the distributed file system), read through {@code opener}. */
  public static Run stored(Opener opener, String where, long bytes, long records, boolean sorted) {
    return new Run(null, 0, Path.of(where), opener, bytes, records, sorted);
  }

  public boolean inMemory() {
    return opener == null;
  }

  /** Memory-held bytes (only for an in-memory run). */
  public byte[] data() {
    return data;
  }

  public Path file() {
    return file;
  }

  public long bytes() {
    return bytes;
  }

  public long records() {
    return records;
  }

  public boolean sorted() {
    return sorted;
  }

  /** The run's bytes as a stream, from memory or its file. */
  public InputStream open() throws IOException {
    if (opener == null) {
      return new java.io.ByteArrayInputStream(data, 0, length);
    }
    return opener.open();
  }

  /** A cursor over the records. */
  public RecordCursor cursor() throws IOException {
    return opener == null ? RecordCursor.over(data, 0, length) : RecordCursor.over(open(), bytes);
  }

  @Override
  public String toString() {
    return (sorted ? "sorted" : "unsorted")
        + " run of "
        + records
        + " records, "
        + bytes
        + " bytes"
        + (opener == null ? " in memory" : " in " + file);
  }
}
