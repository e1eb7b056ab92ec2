package dev.levee.bench.limits;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sequential write of a fresh file in 4 MiB writes, timed until {@code fsync} returns, so the
 * figure is what reached the device rather than the page cache. Each repetition deletes and
 * rewrites the file (block allocation included, as for a new spill file).
 */
final class DiskWriteProbe implements BandwidthProbe {
  private final Path file;
  private final long bytes;
  private ByteBuffer chunk;

  DiskWriteProbe(Path dir, long bytes) {
    this.file =
        dir.resolve("levee-physical-limits-write-" + ProcessHandle.current().pid() + ".dat");
    this.bytes = bytes;
  }

  @Override
  public String variant() {
    return "disk-write-fsync";
  }

  @Override
  public Map<String, Object> params() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("bytes", bytes);
    p.put("chunk_bytes", DiskFiles.CHUNK);
    p.put("dir", file.getParent().toString());
    return p;
  }

  @Override
  public String method() {
    return "FileChannel.write 4 MiB chunks to a new file, then force(true); time includes the fsync";
  }

  @Override
  public boolean wantsWarmUp() {
    return false; // the device, not the JIT, sets the pace; a warm-up would only double the run
    // time
  }

  @Override
  public void setUp() {
    chunk = ByteBuffer.allocateDirect(DiskFiles.CHUNK);
    Buffers.fillRandom(chunk, 4);
  }

  @Override
  public Sample measure() throws Exception {
    Files.deleteIfExists(file);
    return new Sample(bytes, DiskFiles.writeAndSync(file, bytes, chunk));
  }

  @Override
  public void close() throws Exception {
    Files.deleteIfExists(file);
    Buffers.free(chunk);
  }
}
