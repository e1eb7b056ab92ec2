package dev.levee.bench.hadoop.themis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What a job's text output is: per part, its line count and an order-independent checksum of its
 * lines; and whether every part is in key order (the text before the first TAB), as a reducer
 * writes it. Two variants of the same job on the same input must give equal digests part by part
 * when they partition alike, and the same lines overall when they do not; the checksum ignores the
 * order of lines, which within one key is free.
 */
record OutputDigest(
    long records, List<String> parts, long checksum, boolean sorted, String firstUnsorted) {
  boolean sameAs(OutputDigest other) {
    return records == other.records && parts.equals(other.parts);
  }

  /**
   * The same lines, however they are split into parts: what two runs of a job with different
   * reducer counts or partitioners must agree on (each part in key order is checked separately).
   */
  boolean sameRecordsAs(OutputDigest other) {
    return records == other.records && checksum == other.checksum;
  }

  static OutputDigest of(FileSystem fs, Path dir) throws IOException {
    FileStatus[] files = fs.listStatus(dir, p -> p.getName().startsWith("part-"));
    Arrays.sort(files);
    long total = 0;
    List<String> parts = new ArrayList<>();
    long checksum = 0;
    String unsorted = null;
    for (FileStatus f : files) {
      long count = 0;
      long sum = 0;
      String previousKey = null;
      CRC32 crc = new CRC32();
      try (BufferedReader in =
          new BufferedReader(
              new InputStreamReader(fs.open(f.getPath()), StandardCharsets.ISO_8859_1), 1 << 20)) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          int tab = line.indexOf('\t');
          String key = tab < 0 ? line : line.substring(0, tab);
          // Text keys compare by bytes; read as ISO-8859-1, String order is the same.
          if (previousKey != null && key.compareTo(previousKey) < 0 && unsorted == null) {
            unsorted = f.getPath().getName() + ": " + previousKey + " before " + key;
          }
          previousKey = key;
          crc.reset();
          crc.update(line.getBytes(StandardCharsets.ISO_8859_1));
          sum += crc.getValue();
          count++;
        }
      }
      total += count;
      checksum += sum;
      parts.add(f.getPath().getName() + ":" + count + ":" + Long.toHexString(sum));
    }
    return new OutputDigest(total, parts, checksum, unsorted == null, unsorted);
  }
}
