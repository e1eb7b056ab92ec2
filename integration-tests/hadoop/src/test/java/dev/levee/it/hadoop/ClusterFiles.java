package dev.levee.it.hadoop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Reading and writing the small text files the smoke tests use on HDFS. */
public final class ClusterFiles {

  private ClusterFiles() {}

  public static void writeLines(FileSystem fs, Path file, List<String> lines) throws IOException {
    try (OutputStream out = fs.create(file, false)) {
      for (String line : lines) {
        out.write(line.getBytes(StandardCharsets.UTF_8));
        out.write('\n');
      }
    }
  }

  /** Output part files of a job directory, by name (part-r-00000, part-r-00001, ...). */
  public static List<Path> partFiles(FileSystem fs, Path dir) throws IOException {
    FileStatus[] statuses = fs.listStatus(dir, p -> p.getName().startsWith("part-"));
    Arrays.sort(statuses);
    List<Path> parts = new ArrayList<>();
    for (FileStatus status : statuses) {
      parts.add(status.getPath());
    }
    return parts;
  }

  public static List<String> readLines(FileSystem fs, Path file) throws IOException {
    List<String> lines = new ArrayList<>();
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines.add(line);
      }
    }
    return lines;
  }

  /** All lines of all part files, in part order. */
  public static List<String> readOutput(FileSystem fs, Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Path part : partFiles(fs, dir)) {
      lines.addAll(readLines(fs, part));
    }
    return lines;
  }
}
