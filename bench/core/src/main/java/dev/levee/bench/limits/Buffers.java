package dev.levee.bench.limits;

import dev.levee.bench.gen.SplitMix64;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * Buffer helpers for probes that move gigabytes: release direct and mapped buffers now rather than
 * at the next GC (a few repetitions would otherwise pin several GiB of native memory or /dev/shm),
 * and fill buffers with incompressible bytes so no layer can cheat by compressing or deduplicating
 * zeros.
 */
final class Buffers {
  private static final Object UNSAFE;
  private static final Method INVOKE_CLEANER;

  static {
    Object unsafe = null;
    Method cleaner = null;
    try {
      // sun.misc.Unsafe lives in jdk.unsupported, which is open to the classpath without
      // --add-opens.
      Class<?> c = Class.forName("sun.misc.Unsafe");
      Field f = c.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      unsafe = f.get(null);
      cleaner = c.getMethod("invokeCleaner", ByteBuffer.class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // Leave both null: buffers are then freed by GC, which only costs memory.
    }
    UNSAFE = unsafe;
    INVOKE_CLEANER = cleaner;
  }

  private Buffers() {}

  static void free(ByteBuffer buffer) {
    if (buffer == null || !buffer.isDirect() || INVOKE_CLEANER == null) {
      return;
    }
    try {
      INVOKE_CLEANER.invoke(UNSAFE, buffer);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // A slice or duplicate cannot be cleaned directly; the GC will release it.
    }
  }

  static void fillRandom(ByteBuffer buffer, long seed) {
    SplitMix64 rng = new SplitMix64(seed);
    ByteBuffer b = buffer.duplicate();
    b.clear();
    while (b.remaining() >= 8) {
      b.putLong(rng.nextLong());
    }
    while (b.hasRemaining()) {
      b.put((byte) rng.nextLong());
    }
  }

  static void fillRandom(byte[] array, long seed) {
    fillRandom(ByteBuffer.wrap(array), seed);
  }
}
