package dev.levee.sponge.pig;

import dev.levee.sponge.SpongeFile;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A spill in one {@link SpongeFile}, as the paper does it: one file per spill. */
final class SpongeSpillRun implements SpillRun {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeSpillRun.class);

  /**
   * Tuples are decoded a few bytes at a time; the sponge stream copies chunk slices, so a small
   * buffer in front of it saves a call per field without holding much per open reader.
   */
  private static final int READ_BUFFER = 16 * 1024;

  private final SpongeFile file;

  SpongeSpillRun(SpongeFile file) {
    this.file = file;
  }

  @Override
  public DataInputStream open(boolean prefetch) throws IOException {
    return new DataInputStream(new BufferedInputStream(file.input(prefetch), READ_BUFFER));
  }

  @Override
  public void delete() {
    try {
      file.delete();
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not free {}; the node's sponge server reclaims it", file, e);
    }
  }

  @Override
  public long length() {
    return file.length();
  }

  SpongeFile file() {
    return file;
  }

  @Override
  public String toString() {
    return file.toString();
  }
}
