package dev.levee.bench.hadoop.median.pig;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * An order-free fingerprint of a job's output: the line count and the sum (mod 2^64) of each line's
 * SHA-256 prefix. Two outputs with the same lines in any order and any split into part files have
 * the same digest; a changed, missing or extra line changes it.
 */
public record OutputDigest(long lines, long hashSum) {

  public static OutputDigest ofLines(Iterable<String> lines) {
    long count = 0;
    long sum = 0;
    MessageDigest sha = sha256();
    for (String line : lines) {
      count++;
      sum += ByteBuffer.wrap(sha.digest(line.getBytes(StandardCharsets.UTF_8))).getLong();
    }
    return new OutputDigest(count, sum);
  }

  /** The digest of every {@code part-*} file under {@code dir}. */
  public static OutputDigest ofDirectory(FileSystem fs, Path dir) throws IOException {
    long count = 0;
    long sum = 0;
    MessageDigest sha = sha256();
    for (FileStatus part : fs.listStatus(dir, p -> p.getName().startsWith("part-"))) {
      try (BufferedReader r =
          new BufferedReader(
              new InputStreamReader(fs.open(part.getPath()), StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          count++;
          sum += ByteBuffer.wrap(sha.digest(line.getBytes(StandardCharsets.UTF_8))).getLong();
        }
      }
    }
    return new OutputDigest(count, sum);
  }

  @Override
  public String toString() {
    return lines + " lines, " + Long.toHexString(hashSum);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
