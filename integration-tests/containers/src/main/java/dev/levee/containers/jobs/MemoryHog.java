package dev.levee.containers.jobs;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Takes its container's memory until the kernel's OOM killer acts: {@code MemoryHog <pid>
 * <seconds>} allocates (and, by zeroing, touches) blocks off the heap (8 MiB, 1 MiB near the limit)
 * until the container's memory cgroup counts one more OOM kill than when it started, then prints
 * {@code OOM_KILLED\t<kills before>\t<kills after>\t<MiB it held>\t<whether pid still lives>} and
 * exits, freeing all. Exits 1 if no kill came within {@code <seconds>} or its own cap, and is meant
 * to be the kernel's last choice: whoever runs it raises the intended victim's {@code
 * oom_score_adj}.
 */
public final class MemoryHog {
  private static final int BLOCK = 8 << 20;
  private static final int SMALL_BLOCK = 1 << 20;
  private static final long NEAR = 128L << 20;
  private static final String V1 = "/sys/fs/cgroup/memory/memory.";
  private static final String V2 = "/sys/fs/cgroup/memory.";
  private static final boolean IS_V1 = Files.exists(Path.of(V1 + "oom_control"));

  private MemoryHog() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: MemoryHog <pid> <seconds>");
      System.exit(2);
    }
    long pid = Long.parseLong(args[0]);
    long deadline = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000_000L;
    long before = oomKills();
    List<ByteBuffer> held = new ArrayList<>();
    long mib = 0;
    while (System.nanoTime() < deadline) {
      long now = oomKills();
      if (now > before) {
        System.out.printf("OOM_KILLED\t%d\t%d\t%d\t%b%n", before, now, mib, alive(pid));
        return;
      }
      // Far from the limit, large steps; near it, small ones with a pause, so that the kill is
      // seen before the hog takes more: a dying victim's memory is freed a moment after its kill,
      // and a hog still faulting in pages then would be the kernel's next choice.
      boolean near = limit() - usage() < NEAR;
      try {
        held.add(ByteBuffer.allocateDirect(near ? SMALL_BLOCK : BLOCK));
        mib += near ? 1 : BLOCK >> 20;
        if (near) {
          Thread.sleep(10);
        }
      } catch (OutOfMemoryError e) {
        System.out.printf("NO_KILL\treached the hog's own cap at %d MiB: %s%n", mib, e);
        System.exit(1);
      }
    }
    System.out.printf("NO_KILL\twithin %s s, holding %d MiB%n", args[1], mib);
    System.exit(1);
  }

  /** The container's memory limit in bytes (cgroup v1 or v2). */
  private static long limit() throws Exception {
    String v = read(IS_V1 ? V1 + "limit_in_bytes" : V2 + "max");
    return v.equals("max") ? Long.MAX_VALUE : Long.parseLong(v);
  }

  /** The memory the container uses now, page cache included. */
  private static long usage() throws Exception {
    return Long.parseLong(read(IS_V1 ? V1 + "usage_in_bytes" : V2 + "current"));
  }

  private static String read(String file) throws Exception {
    return Files.readString(Path.of(file)).strip();
  }

  /** The container's OOM kills so far (cgroup v1's memory.oom_control, or v2's memory.events). */
  private static long oomKills() throws Exception {
    Path file = Path.of(IS_V1 ? V1 + "oom_control" : V2 + "events");
    for (String line : Files.readAllLines(file)) {
      if (line.startsWith("oom_kill ")) {
        return Long.parseLong(line.substring("oom_kill ".length()).strip());
      }
    }
    throw new IllegalStateException(
        file + " has no oom_kill line: this kernel does not count them");
  }

  /** Whether the process runs (a zombie, killed and not yet reaped, does not). */
  private static boolean alive(long pid) throws Exception {
    Path stat = Path.of("/proc/" + pid + "/stat");
    if (!Files.exists(stat)) {
      return false;
    }
    String s = Files.readString(stat);
    return !s.substring(s.lastIndexOf(')') + 2).startsWith("Z");
  }
}
