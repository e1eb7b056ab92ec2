package dev.levee.containers.jobs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;

/**
 * What a job the client container ran prints for the test that drives it: one {@code
 * COUNTER\tgroup\tname\tvalue} line per counter, and, when it succeeded, {@code OUTPUT\t<n>
 * lines\tsha256} over its sorted output lines (equal between runs exactly when the output holds the
 * same lines).
 */
final class JobReport {
  private JobReport() {}

  static void print(Counters counters, boolean succeeded, FileSystem fs, Path output)
      throws IOException {
    printCounters(counters);
    if (succeeded) {
      System.out.println(digest(fs, output));
    }
  }

  /**
   * The same, with {@code OUTPUT\t<n> bytes in order\tsha256} over the part files' bytes in the
   * order of their names: for a total-order sort, equal between runs exactly when they wrote the
   * same bytes in the same order.
   */
  static void printInOrder(Counters counters, boolean succeeded, FileSystem fs, Path output)
      throws IOException {
    printCounters(counters);
    if (succeeded) {
      List<Path> parts = new ArrayList<>();
      for (FileStatus part : fs.listStatus(output, p -> p.getName().startsWith("part-"))) {
        parts.add(part.getPath());
      }
      parts.sort(null);
      MessageDigest sha = sha256();
      long bytes = 0;
      for (Path part : parts) {
        try (var in = fs.open(part)) {
          byte[] all = in.readAllBytes();
          sha.update(all);
          bytes += all.length;
        }
      }
      System.out.println(
          "OUTPUT\t" + bytes + " bytes in order\t" + HexFormat.of().formatHex(sha.digest()));
    }
  }

  private static void printCounters(Counters counters) {
    for (CounterGroup group : counters) {
      for (Counter c : group) {
        System.out.println(
            "COUNTER\t" + group.getName() + "\t" + c.getName() + "\t" + c.getValue());
      }
    }
  }

  private static String digest(FileSystem fs, Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (FileStatus part : fs.listStatus(dir, p -> p.getName().startsWith("part-"))) {
      try (var in = fs.open(part.getPath())) {
        for (String l : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
          if (!l.isEmpty()) {
            lines.add(l);
          }
        }
      }
    }
    lines.sort(null);
    MessageDigest sha = sha256();
    for (String l : lines) {
      sha.update(l.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) '\n');
    }
    return "OUTPUT\t" + lines.size() + " lines\t" + HexFormat.of().formatHex(sha.digest());
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
