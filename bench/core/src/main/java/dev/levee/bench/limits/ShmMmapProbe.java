package dev.levee.bench.limits;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Write bandwidth into a memory-mapped file on tmpfs ({@code /dev/shm}), the path SpongeFiles uses
 * for local-memory chunks. {@code fresh} maps a new file each repetition, so the time includes the
 * kernel handing out and zeroing pages (what a new chunk costs); otherwise the same mapping is
 * rewritten (what reusing a chunk costs).
 */
final class ShmMmapProbe implements BandwidthProbe {
  private static final long SEGMENT =
      1L << 30; // one mapping is limited to 2 GiB; map larger files in segments
  private static final int CHUNK = 1 << 20;
  private final Path file;
  private final long bytes;
  private final boolean fresh;
  private ByteBuffer source;
  private FileChannel channel;
  private List<MappedByteBuffer> segments = new ArrayList<>();

  ShmMmapProbe(Path dir, long bytes, boolean fresh) {
    this.file =
        dir.resolve(
            "levee-physical-limits-"
                + (fresh ? "new-" : "rewrite-")
                + ProcessHandle.current().pid());
    this.bytes = bytes;
    this.fresh = fresh;
  }

  @Override
  public String variant() {
    return fresh ? "shm-mmap-write-new" : "shm-mmap-rewrite";
  }

  @Override
  public Map<String, Object> params() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("bytes", bytes);
    p.put("chunk_bytes", CHUNK);
    p.put("dir", file.getParent().toString());
    return p;
  }

  @Override
  public String method() {
    return fresh
        ? "mmap a new tmpfs file, ByteBuffer.put 1 MiB chunks (page allocation included)"
        : "ByteBuffer.put 1 MiB chunks into an already-populated tmpfs mapping";
  }

  @Override
  public void setUp() throws IOException {
    source = ByteBuffer.allocateDirect(CHUNK);
    Buffers.fillRandom(source, 6);
    if (!fresh) {
      map();
      fill();
    }
  }

  @Override
  public Sample measure() throws IOException {
    if (fresh) {
      unmap();
      long start = System.nanoTime();
      map();
      fill();
      return Sample.timed(bytes, start);
    }
    long start = System.nanoTime();
    fill();
    return Sample.timed(bytes, start);
  }

  private void map() throws IOException {
    Files.deleteIfExists(file);
    channel =
        FileChannel.open(
            file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    for (long off = 0; off < bytes; off += SEGMENT) {
      segments.add(
          channel.map(FileChannel.MapMode.READ_WRITE, off, Math.min(SEGMENT, bytes - off)));
    }
  }

  private void fill() {
    for (MappedByteBuffer seg : segments) {
      seg.clear();
      while (seg.remaining() >= CHUNK) {
        seg.put(source.duplicate().clear());
      }
      seg.put(source.duplicate().clear().limit(seg.remaining()));
    }
  }

  private void unmap() throws IOException {
    segments.forEach(Buffers::free);
    segments = new ArrayList<>();
    if (channel != null) {
      channel.close();
      channel = null;
    }
    Files.deleteIfExists(file);
  }

  @Override
  public void close() throws IOException {
    unmap();
    Buffers.free(source);
  }
}
