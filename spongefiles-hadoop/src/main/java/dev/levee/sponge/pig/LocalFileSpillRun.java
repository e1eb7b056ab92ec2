package dev.levee.sponge.pig;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A spill in a local temporary file, where stock Pig puts it ({@code java.io.tmpdir}, which a YARN
 * container points into its own working directory): the path of a task with no usable sponge.
 */
final class LocalFileSpillRun implements SpillRun {
  private static final Logger LOG = LoggerFactory.getLogger(LocalFileSpillRun.class);

  private final File file;

  LocalFileSpillRun(File file) {
    this.file = file;
  }

  @Override
  public DataInputStream open(boolean prefetch) throws IOException {
    return new DataInputStream(new BufferedInputStream(new FileInputStream(file)));
  }

  @Override
  public void delete() {
    if (file.exists() && !file.delete()) {
      LOG.warn("could not delete bag spill file {}", file);
    }
  }

  @Override
  public long length() {
    return file.length();
  }

  @Override
  public String toString() {
    return file.toString();
  }
}
