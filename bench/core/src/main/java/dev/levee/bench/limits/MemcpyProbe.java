package dev.levee.bench.limits;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Copy bandwidth between two buffers far larger than the CPU caches: {@code System.arraycopy}
 * between heap arrays, or {@code ByteBuffer.put} between direct buffers (an Unsafe memory copy).
 * Counted as bytes copied (each byte is read once and written once), the figure a serialiser or
 * shuffle copy is bounded by.
 */
final class MemcpyProbe implements BandwidthProbe {
  private final boolean direct;
  private final int bufferBytes;
  private final int passes;
  private byte[] srcArray;
  private byte[] dstArray;
  private ByteBuffer srcDirect;
  private ByteBuffer dstDirect;

  MemcpyProbe(boolean direct, int bufferBytes, int passes) {
    this.direct = direct;
    this.bufferBytes = bufferBytes;
    this.passes = passes;
  }

  @Override
  public String variant() {
    return direct ? "memcpy-direct" : "memcpy-heap";
  }

  @Override
  public Map<String, Object> params() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("buffer_bytes", bufferBytes);
    p.put("passes", passes);
    return p;
  }

  @Override
  public String method() {
    return direct
        ? "ByteBuffer.put between two direct buffers"
        : "System.arraycopy between two byte[]";
  }

  @Override
  public void setUp() {
    if (direct) {
      srcDirect = ByteBuffer.allocateDirect(bufferBytes);
      dstDirect = ByteBuffer.allocateDirect(bufferBytes);
      Buffers.fillRandom(srcDirect, 1);
      Buffers.fillRandom(dstDirect, 2); // touch every page now, not inside the timed copy
    } else {
      srcArray = new byte[bufferBytes];
      dstArray = new byte[bufferBytes];
      Buffers.fillRandom(srcArray, 1);
      Buffers.fillRandom(dstArray, 2);
    }
  }

  @Override
  public Sample measure() {
    long start = System.nanoTime();
    for (int i = 0; i < passes; i++) {
      if (direct) {
        dstDirect.clear();
        dstDirect.put(srcDirect.duplicate().clear());
      } else {
        System.arraycopy(srcArray, 0, dstArray, 0, bufferBytes);
      }
    }
    Sample s = Sample.timed((long) bufferBytes * passes, start);
    // Read the destination so the copies are observable; cheap next to the copy itself.
    int check = direct ? dstDirect.get(bufferBytes / 2) : dstArray[bufferBytes / 2];
    if (check != (direct ? srcDirect.get(bufferBytes / 2) : srcArray[bufferBytes / 2])) {
      throw new IllegalStateException("copy did not land");
    }
    return s;
  }

  @Override
  public void close() {
    Buffers.free(srcDirect);
    Buffers.free(dstDirect);
    srcDirect = dstDirect = null;
    srcArray = dstArray = null;
  }
}
