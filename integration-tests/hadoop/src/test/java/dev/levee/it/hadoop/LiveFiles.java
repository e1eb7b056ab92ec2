package dev.levee.it.hadoop;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Finding files in a running cluster's local directories. NodeManagers create and delete container
 * directories while a test looks, and {@code Files.walk} fails on the first entry that vanishes
 * mid-walk; this walk skips such entries, so a poll sees the tree as it was a moment ago.
 */
public final class LiveFiles {

  private LiveFiles() {}

  /** Every regular file named {@code name} under {@code root} that existed while walking. */
  public static List<Path> named(Path root, String name) throws IOException {
    List<Path> found = new ArrayList<>();
    if (!Files.isDirectory(root)) {
      return found;
    }
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (file.getFileName().toString().equals(name)) {
              found.add(file);
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) {
            return FileVisitResult.CONTINUE; // deleted while we walked: not there any more
          }

          @Override
          public FileVisitResult postVisitDirectory(Path dir, IOException e) {
            return FileVisitResult.CONTINUE; // a directory removed part-way: keep what was seen
          }
        });
    return found;
  }
}
