package dev.levee.bench.progress;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Where a multi-step run is and how long is left, printed to stderr as
 *
 * <pre>
 * [3/7] spongefiles-hadoop: Median job, stock: running 40s; elapsed 1m32s, about 4m10s left
 * </pre>
 *
 * <p>Each planned step has an estimate: what it took in the last run that recorded it, else the
 * plan's default. As steps finish, the estimates of the remaining ones are scaled by how far the
 * finished steps were from theirs (a slower machine or bigger data is slower throughout), so the
 * time left gets better as the run goes on. A line goes out when a step starts, every heartbeat
 * while it runs, and when it ends.
 *
 * <p>Steps can run in several JVMs one after another (the demo's Hadoop side, then its Spark side):
 * each JVM opens the same state file in the run directory, which holds the run's start time and
 * every finished step's actual seconds, so elapsed time and estimates carry over.
 */
public final class StepProgress implements AutoCloseable {
  /** One planned step: a stable id, what a person reads, and a default estimate. */
  public record Step(String id, String label, double estimateSeconds) {}

  public static final String STATE_FILE = "progress.tsv";

  private final String name;
  private final List<Step> plan;
  private final Path stateFile;
  private final PrintStream out;
  private final LongSupplier clockMillis;
  private final long startMillis;
  private final Map<String, Double> estimates = new HashMap<>();
  private final Map<String, Double> actuals = new LinkedHashMap<>();
  private final ScheduledExecutorService heartbeat;
  private Step current;
  private long currentStartMillis;

  /**
   * @param previous actual seconds per step id from an earlier run (may be empty)
   * @param heartbeatMillis interval of "running" lines; 0 for none
   */
  public StepProgress(
      String name,
      List<Step> plan,
      Path stateFile,
      Map<String, Double> previous,
      PrintStream out,
      LongSupplier clockMillis,
      long heartbeatMillis) {
    this.name = name;
    this.plan = List.copyOf(plan);
    this.stateFile = stateFile;
    this.out = out;
    this.clockMillis = clockMillis;
    for (Step s : plan) {
      estimates.put(s.id(), previous.getOrDefault(s.id(), s.estimateSeconds()));
    }
    long now = clockMillis.getAsLong();
    long start = now;
    if (Files.isRegularFile(stateFile)) {
      for (String line : readLines(stateFile)) {
        String[] f = line.split("\t");
        if (f.length == 2 && f[0].equals("start")) {
          start = Long.parseLong(f[1]);
        } else if (f.length == 3 && f[0].equals("done")) {
          actuals.put(f[1], Double.parseDouble(f[2]));
        }
      }
    } else {
      append("start\t" + now);
    }
    this.startMillis = start;
    if (heartbeatMillis > 0) {
      heartbeat =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, name + "-progress");
                t.setDaemon(true);
                return t;
              });
      heartbeat.scheduleAtFixedRate(
          this::beat, heartbeatMillis, heartbeatMillis, TimeUnit.MILLISECONDS);
    } else {
      heartbeat = null;
    }
  }

  /**
   * A reporter on stderr with a heartbeat every 20 s, estimates seeded from the newest other run
   * directory (sibling of {@code runDir}) holding a state file.
   */
  public static StepProgress start(String name, List<Step> plan, Path runDir) {
    return new StepProgress(
        name,
        plan,
        runDir.resolve(STATE_FILE),
        previousActuals(runDir, plan),
        System.err,
        System::currentTimeMillis,
        20_000);
  }

  /** Marks {@code stepId} started (ending the current step, if any). */
  public synchronized void begin(String stepId) {
    if (current != null) {
      end();
    }
    current = step(stepId);
    currentStartMillis = clockMillis.getAsLong();
    out.println(line("started"));
  }

  /** Marks the current step finished and records its time for later JVMs and runs. */
  public synchronized void end() {
    if (current == null) {
      return;
    }
    double seconds = (clockMillis.getAsLong() - currentStartMillis) / 1000.0;
    actuals.put(current.id(), seconds);
    append(String.format(Locale.ROOT, "done\t%s\t%.3f", current.id(), seconds));
    out.println(line("done in " + duration(seconds)));
    current = null;
  }

  @Override
  public synchronized void close() {
    end();
    if (heartbeat != null) {
      heartbeat.shutdownNow();
    }
  }

  private synchronized void beat() {
    if (current != null) {
      out.println(
          line(
              "running "
                  + duration((clockMillis.getAsLong() - currentStartMillis) / 1000.0)
                  + " (estimate "
                  + duration(estimates.get(current.id()) * scale())
                  + ")"));
    }
  }

  /** "[k/N] label: what; elapsed E, about R left". */
  synchronized String line(String what) {
    Step s = current;
    int k = plan.indexOf(s) + 1;
    double elapsed = (clockMillis.getAsLong() - startMillis) / 1000.0;
    return String.format(
        Locale.ROOT,
        "%s [%d/%d] %s: %s; elapsed %s, about %s left",
        name,
        k,
        plan.size(),
        s.label(),
        what,
        duration(elapsed),
        duration(remainingSeconds()));
  }

  /**
   * The estimated seconds left: the unfinished part of the current step plus every later step, each
   * estimate scaled by how the finished steps compared with theirs.
   */
  synchronized double remainingSeconds() {
    double scale = scale();
    double left = 0;
    boolean after = current == null;
    for (Step s : plan) {
      if (s == current) {
        double running =
            actuals.containsKey(s.id())
                ? 0
                : (clockMillis.getAsLong() - currentStartMillis) / 1000.0;
        left +=
            actuals.containsKey(s.id()) ? 0 : Math.max(0, estimates.get(s.id()) * scale - running);
        after = true;
      } else if (after && !actuals.containsKey(s.id())) {
        left += estimates.get(s.id()) * scale;
      }
    }
    return left;
  }

  /** Actual over estimated time of the finished planned steps, within 1/4..4; 1 before any. */
  synchronized double scale() {
    double actual = 0;
    double estimated = 0;
    for (Step s : plan) {
      Double a = actuals.get(s.id());
      if (a != null) {
        actual += a;
        estimated += estimates.get(s.id());
      }
    }
    if (estimated <= 0) {
      return 1;
    }
    return Math.max(0.25, Math.min(4, actual / estimated));
  }

  private Step step(String id) {
    for (Step s : plan) {
      if (s.id().equals(id)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        name + ": no step '" + id + "' in the plan " + plan.stream().map(Step::id).toList());
  }

  /**
   * The actual step times of the newest sibling run directory that recorded any step of {@code
   * plan}.
   */
  public static Map<String, Double> previousActuals(Path runDir, List<Step> plan) {
    List<String> ids = plan.stream().map(Step::id).toList();
    Path runs = runDir.toAbsolutePath().getParent();
    if (runs == null || !Files.isDirectory(runs)) {
      return Map.of();
    }
    List<Path> candidates = new ArrayList<>();
    try (var s = Files.list(runs)) {
      s.filter(p -> !p.getFileName().equals(runDir.getFileName()))
          .filter(p -> Files.isRegularFile(p.resolve(STATE_FILE)))
          .forEach(candidates::add);
    } catch (IOException e) {
      return Map.of();
    }
    candidates.sort(
        (a, b) -> Long.compare(modified(b.resolve(STATE_FILE)), modified(a.resolve(STATE_FILE))));
    for (Path p : candidates) {
      Map<String, Double> m = new HashMap<>(finished(p));
      m.keySet().retainAll(ids);
      if (!m.isEmpty()) {
        return m;
      }
    }
    return Map.of();
  }

  /**
   * The steps the run in {@code runDir} has finished, with their seconds (none when it has no state
   * file).
   */
  public static Map<String, Double> finished(Path runDir) {
    Path stateFile = runDir.resolve(STATE_FILE);
    Map<String, Double> done = new HashMap<>();
    if (Files.isRegularFile(stateFile)) {
      for (String line : readLines(stateFile)) {
        String[] f = line.split("\t");
        if (f.length == 3 && f[0].equals("done")) {
          done.put(f[1], Double.parseDouble(f[2]));
        }
      }
    }
    return done;
  }

  private static long modified(Path p) {
    try {
      return Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }

  private static List<String> readLines(Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("could not read progress state " + file, e);
    }
  }

  private void append(String line) {
    try {
      Files.createDirectories(stateFile.toAbsolutePath().getParent());
      Files.writeString(
          stateFile,
          line + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write progress state " + stateFile, e);
    }
  }

  static String duration(double seconds) {
    long s = Math.round(seconds);
    if (s < 60) {
      return s + "s";
    }
    return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
  }
}
