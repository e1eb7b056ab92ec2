package dev.levee.sponge.local;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Main class run in child JVMs by the pool tests. Usage: {@code <mode> <dir> <capacity> <chunkSize>
 * [args]}; prints its results on stdout.
 */
public final class PoolChild {
  public static void main(String[] args) throws Exception {
    String mode = args[0];
    Path dir = Path.of(args[1]);
    long capacity = Long.parseLong(args[2]);
    int chunkSize = Integer.parseInt(args[3]);
    ChunkOwner me = ChunkOwner.currentProcess("child-host");
    try (SharedMemoryPool pool = SharedMemoryPool.open(dir, capacity, chunkSize)) {
      switch (mode) {
        case "churn-then-fill" ->
            churnThenFill(pool, me, Path.of(args[4]), Integer.parseInt(args[5]));
        case "hold" -> hold(pool, me, Integer.parseInt(args[4]));
        case "lock-and-hold" -> {
          pool.lockForTest();
          System.out.println("LOCKED");
          System.out.flush();
          Thread.sleep(Long.MAX_VALUE);
        }
        case "die-mid-allocate" -> dieMidAllocate(pool, dir, me, Integer.parseInt(args[4]));
        default -> throw new IllegalArgumentException(mode);
      }
    }
  }

  /**
   * Waits for the go file, then allocates/frees many times checking that nobody else writes into
   * its chunk (a double allocation would), then takes chunks until the pool is full and prints
   * them.
   */
  private static void churnThenFill(SharedMemoryPool pool, ChunkOwner me, Path go, int rounds)
      throws Exception {
    while (!Files.exists(go)) {
      Thread.onSpinWait();
    }
    ByteBuffer sig = ByteBuffer.allocate(16);
    ByteBuffer back = ByteBuffer.allocate(16);
    int corrupt = 0;
    for (int r = 0; r < rounds; r++) {
      OptionalInt c = pool.allocate(me);
      if (c.isEmpty()) {
        continue;
      }
      sig.clear();
      sig.putLong(me.pid()).putLong(r).flip();
      pool.write(c.getAsInt(), sig);
      for (int spin = 0; spin < 50; spin++) {
        Thread.onSpinWait();
      }
      back.clear();
      pool.read(c.getAsInt(), 16, back);
      if (back.getLong(0) != me.pid()
          || back.getLong(8) != r
          || !me.equals(pool.ownerOf(c.getAsInt()))) {
        corrupt++;
      }
      pool.free(c.getAsInt(), me);
    }
    List<Integer> mine = new ArrayList<>();
    for (OptionalInt c = pool.allocate(me); c.isPresent(); c = pool.allocate(me)) {
      sig.clear();
      sig.putLong(me.pid()).putLong(c.getAsInt()).flip();
      pool.write(c.getAsInt(), sig);
      mine.add(c.getAsInt());
    }
    System.out.println("CORRUPT " + corrupt);
    System.out.println("CHUNKS " + join(mine));
    System.out.flush();
  }

  private static void hold(SharedMemoryPool pool, ChunkOwner me, int n) throws Exception {
    List<Integer> mine = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      mine.add(pool.allocate(me).orElseThrow());
    }
    System.out.println("HELD " + join(mine));
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }

  /**
   * Takes the lock and does the first half of an allocation of {@code chunk} (entry written, free
   * counter not yet decremented) through its own mapping of the metadata, then stops: the state a
   * kill -9 inside allocate leaves.
   */
  private static void dieMidAllocate(SharedMemoryPool pool, Path dir, ChunkOwner me, int chunk)
      throws Exception {
    pool.lockForTest();
    try (FileChannel ch =
        FileChannel.open(
            dir.resolve(SharedMemoryPool.META_FILE),
            StandardOpenOption.READ,
            StandardOpenOption.WRITE)) {
      MappedByteBuffer meta =
          ch.map(FileChannel.MapMode.READ_WRITE, 0, PoolLayout.metadataBytes(chunk + 1));
      meta.order(ByteOrder.nativeOrder());
      int entry = PoolLayout.entryOffset(chunk);
      byte[] host = me.host().getBytes();
      meta.putShort(entry + PoolLayout.ENTRY_HOST_LEN, (short) host.length);
      meta.put(entry + PoolLayout.ENTRY_HOST, host);
      meta.putLong(entry + PoolLayout.ENTRY_PID, me.pid());
      meta.force();
    }
    System.out.println("HALFWAY");
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }

  private static String join(List<Integer> xs) {
    StringBuilder sb = new StringBuilder();
    for (int x : xs) {
      sb.append(sb.length() == 0 ? "" : ",").append(x);
    }
    return sb.toString();
  }
}
