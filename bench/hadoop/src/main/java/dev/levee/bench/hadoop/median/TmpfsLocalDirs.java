package dev.levee.bench.hadoop.median;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import org.apache.hadoop.fs.FileUtil;

/**
 * One tmpfs per NodeManager for its local dirs, each as large as a node's sponge: the
 * stock-on-tmpfs arm, "spill to RAM" with the same memory SpongeFiles get. Mounting needs root;
 * without it the dirs are plain directories in {@code /dev/shm} with no budget, and the runs say
 * so.
 *
 * <p>When a tmpfs fills, writes fail and the NodeManager marks the dir bad (its disk checker runs
 * every second in that cluster): {@link Watch} records both as outcomes of the run.
 */
public final class TmpfsLocalDirs implements AutoCloseable {
  /** The NodeManagers' own threshold (MiniClusterSettings): a dir this full is marked bad. */
  static final double FULL_FRACTION = 0.99;

  private static final long SAMPLE_MS = 100;

  private final Path root;
  private final List<Path> dirs;
  private final long budgetBytes;
  private final boolean mounted;

  private TmpfsLocalDirs(Path root, List<Path> dirs, long budgetBytes, boolean mounted) {
    this.root = root;
    this.dirs = dirs;
    this.budgetBytes = budgetBytes;
    this.mounted = mounted;
  }

  /** Mounts {@code count} tmpfs of {@code budgetMb} each under {@code /dev/shm}. */
  public static TmpfsLocalDirs mount(int count, int budgetMb, PrintStream err)
      throws IOException, InterruptedException {
    Path root = Path.of("/dev/shm", "levee-tmpfs-" + ProcessHandle.current().pid());
    List<Path> dirs = new ArrayList<>();
    boolean mounted = true;
    for (int i = 0; i < count; i++) {
      Path dir = Files.createDirectories(root.resolve("nm" + i));
      dirs.add(dir);
      if (mounted) {
        String failure = run("mount", "-t", "tmpfs", "-o", "size=" + budgetMb + "m", "tmpfs", dir);
        if (failure != null) {
          err.println(
              "sponge-median: cannot mount a "
                  + budgetMb
                  + " MB tmpfs ("
                  + failure
                  + "); stock-tmpfs uses /dev/shm without a budget");
          mounted = false;
        }
      }
    }
    if (!mounted) {
      // All or none: a budget on some nodes only would be a third arm.
      for (Path dir : dirs) {
        run("umount", dir);
      }
    }
    return new TmpfsLocalDirs(root, dirs, budgetMb * (1L << 20), mounted);
  }

  public Path dir(int nodeManager) {
    return dirs.get(nodeManager);
  }

  /** Whether each dir is a tmpfs of the budget (false: a plain directory without one). */
  public boolean budgetEnforced() {
    return mounted;
  }

  /**
   * Samples the dirs' use until {@link Watch#stop}; {@code badDirs} counts the NodeManagers whose
   * local dirs are marked bad.
   */
  public Watch watch(IntSupplier badDirs) {
    return new Watch(badDirs);
  }

  /** Peak use and bad dirs over one job. */
  public final class Watch {
    private final AtomicLong peakBytes = new AtomicLong();
    private final AtomicLong peakBad = new AtomicLong();
    private final ScheduledExecutorService sampler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "tmpfs-watch");
              t.setDaemon(true);
              return t;
            });

    private Watch(IntSupplier badDirs) {
      sampler.scheduleAtFixedRate(
          () -> {
            peakBytes.accumulateAndGet(maxUsedBytes(), Math::max);
            peakBad.accumulateAndGet(badDirs.getAsInt(), Math::max);
          },
          0,
          SAMPLE_MS,
          TimeUnit.MILLISECONDS);
    }

    public Map<String, Double> stop() throws InterruptedException {
      sampler.shutdown();
      sampler.awaitTermination(10, TimeUnit.SECONDS);
      Map<String, Double> m = new LinkedHashMap<>();
      m.put("tmpfs_budget_bytes", (double) budgetBytes);
      m.put("tmpfs_budget_enforced", mounted ? 1.0 : 0.0);
      m.put("tmpfs_peak_used_bytes", (double) peakBytes.get());
      m.put("tmpfs_filled", mounted && peakBytes.get() >= FULL_FRACTION * budgetBytes ? 1.0 : 0.0);
      m.put("tmpfs_dirs_marked_bad", (double) peakBad.get());
      return m;
    }
  }

  /** The fullest node's use: a mounted tmpfs's own figure, else the bytes of its files. */
  private long maxUsedBytes() {
    long max = 0;
    for (Path dir : dirs) {
      try {
        long used;
        if (mounted) {
          var store = Files.getFileStore(dir);
          used = store.getTotalSpace() - store.getUnallocatedSpace();
        } else {
          try (var files = Files.walk(dir)) {
            used =
                files
                    .filter(Files::isRegularFile)
                    .mapToLong(
                        f -> {
                          try {
                            return Files.size(f);
                          } catch (IOException gone) {
                            return 0; // deleted while walking
                          }
                        })
                    .sum();
          }
        }
        max = Math.max(max, used);
      } catch (IOException | RuntimeException e) {
        // a container's files come and go under the walk; the next sample counts them
      }
    }
    return max;
  }

  @Override
  public void close() throws IOException, InterruptedException {
    for (Path dir : dirs) {
      if (mounted) {
        String failure = run("umount", "-l", dir);
        if (failure != null) {
          throw new IOException("cannot unmount the tmpfs at " + dir + ": " + failure);
        }
      }
    }
    FileUtil.fullyDelete(root.toFile());
  }

  /** Runs a command; null if it succeeded, else what it said. */
  private static String run(Object... command) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>();
    for (Object c : command) {
      args.add(c.toString());
    }
    Process p;
    try {
      p = new ProcessBuilder(args).redirectErrorStream(true).start();
    } catch (IOException e) {
      return e.getMessage();
    }
    String out = new String(p.getInputStream().readAllBytes()).trim();
    return p.waitFor() == 0 ? null : "exit " + p.exitValue() + ": " + out;
  }
}
