package dev.levee.bench.limits;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sequential read of a file written and fsynced in {@link #setUp()}.
 *
 * <p>The file was just written, so it sits in the page cache; reading it normally would measure
 * memory. The probe therefore opens it with O_DIRECT ({@link ExtendedOpenOption#DIRECT},
 * block-aligned buffer and offsets), which reads from the device on every repetition. Where the
 * file system refuses O_DIRECT (tmpfs, some overlay or network file systems), or the directory is
 * on tmpfs (which accepts O_DIRECT since Linux 6.6 but has no device), the probe says so instead of
 * pretending: the variant becomes {@code disk-read-cached}, a page-cache figure. Making files
 * larger than RAM would defeat the cache too, but at 24 GiB per repetition it does not fit a
 * two-minute run. On a virtual machine the host may still cache the virtual disk; the figure is
 * what the guest sees.
 */
final class DiskReadProbe implements BandwidthProbe {
  private static final java.util.Set<String> MEMORY_FILE_SYSTEMS =
      java.util.Set.of("tmpfs", "ramfs", "hugetlbfs");
  private final Path file;
  private final long bytes;
  private final boolean allowDirect;
  private boolean direct;
  private int alignment;
  private ByteBuffer raw;
  private ByteBuffer aligned;
  private String directFailure = "";

  DiskReadProbe(Path dir, long bytes, boolean allowDirect) {
    this.file = dir.resolve("levee-physical-limits-read-" + ProcessHandle.current().pid() + ".dat");
    this.bytes = bytes;
    this.allowDirect = allowDirect;
  }

  @Override
  public String variant() {
    return direct ? "disk-read-direct" : "disk-read-cached";
  }

  @Override
  public Map<String, Object> params() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("bytes", bytes);
    p.put("chunk_bytes", DiskFiles.CHUNK);
    p.put("dir", file.getParent().toString());
    p.put("o_direct", direct);
    return p;
  }

  @Override
  public String method() {
    return direct
        ? "O_DIRECT reads of 4 MiB into a "
            + alignment
            + "-byte aligned buffer (page cache bypassed)"
        : "buffered reads without O_DIRECT ("
            + directFailure
            + "): page-cache speed, not the device's";
  }

  @Override
  public boolean wantsWarmUp() {
    return false;
  }

  @Override
  public void setUp() throws Exception {
    ByteBuffer chunk = ByteBuffer.allocateDirect(DiskFiles.CHUNK);
    Buffers.fillRandom(chunk, 5);
    try {
      Files.deleteIfExists(file);
      DiskFiles.writeAndSync(file, bytes, chunk);
    } finally {
      Buffers.free(chunk);
    }
    alignment = (int) Math.max(4096, Files.getFileStore(file).getBlockSize());
    raw = ByteBuffer.allocateDirect(DiskFiles.CHUNK + alignment);
    aligned = raw.alignedSlice(alignment);
    aligned.limit(DiskFiles.CHUNK - DiskFiles.CHUNK % alignment);
    String type = Files.getFileStore(file).type();
    if (MEMORY_FILE_SYSTEMS.contains(type)) {
      // Linux 6.6+ accepts O_DIRECT on tmpfs, but there is no device behind it: calling that "disk"
      // would lie.
      directFailure = "file system " + type + " is memory";
      direct = false;
    } else if (!allowDirect) {
      directFailure = "--disk-read cached";
      direct = false;
    } else {
      direct = directWorks();
    }
  }

  private boolean directWorks() {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
      ch.read(aligned.clear().limit(alignment));
      return true;
    } catch (IOException | UnsupportedOperationException e) {
      directFailure = e.toString();
      return false;
    }
  }

  @Override
  public Sample measure() throws Exception {
    OpenOption[] options =
        direct
            ? new OpenOption[] {StandardOpenOption.READ, ExtendedOpenOption.DIRECT}
            : new OpenOption[] {StandardOpenOption.READ};
    int chunk = DiskFiles.CHUNK - DiskFiles.CHUNK % alignment;
    try (FileChannel ch = FileChannel.open(file, options)) {
      long start = System.nanoTime();
      long total = 0;
      int n;
      // Reads stay whole multiples of the block size; the last one may come back short at end of
      // file.
      while ((n = ch.read(aligned.clear().limit(chunk))) > 0) {
        total += n;
      }
      Sample s = Sample.timed(total, start);
      if (total != bytes) {
        throw new IOException("read " + total + " bytes of " + file + ", expected " + bytes);
      }
      return s;
    }
  }

  @Override
  public void close() throws Exception {
    Files.deleteIfExists(file);
    Buffers.free(raw);
  }
}
