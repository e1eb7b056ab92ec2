package dev.levee.bench;

import dev.levee.bench.progress.ProgressReporter;
import dev.levee.bench.results.MachineInfo;
import dev.levee.bench.results.Measurement;
import dev.levee.bench.results.ResultsStore;
import java.io.PrintStream;
import java.time.Instant;
import java.util.Map;

/**
 * What a running suite gets: its parsed options, a place to record measurements, and stdout/stderr.
 */
public final class SuiteContext {
  private final String suite;
  private final Object options;
  private final ResultsStore store;
  private final MachineInfo machine;
  private final String gitRevision;
  private final String command;
  private final PrintStream out;
  private final PrintStream err;

  public SuiteContext(
      String suite,
      Object options,
      ResultsStore store,
      MachineInfo machine,
      String gitRevision,
      String command,
      PrintStream out,
      PrintStream err) {
    this.suite = suite;
    this.options = options;
    this.store = store;
    this.machine = machine;
    this.gitRevision = gitRevision;
    this.command = command;
    this.out = out;
    this.err = err;
  }

  /** The suite's options object ({@link Suite#newOptions()}), parsed from the command line. */
  public <T> T options(Class<T> type) {
    return type.cast(options);
  }

  /**
   * Appends one measurement line to {@code <results>/<suite>.jsonl}, stamped with machine, revision
   * and time.
   */
  public Measurement record(
      String variant, Map<String, ?> params, Map<String, Double> metrics, int repetition) {
    Measurement m =
        new Measurement(
            suite,
            variant,
            Map.copyOf(params),
            metrics,
            repetition,
            machine.toMap(),
            gitRevision,
            Instant.now().toString(),
            command);
    store.append(m);
    return m;
  }

  public ProgressReporter progress(String phase, long total, String unit) {
    return new ProgressReporter(phase, total, unit, err, 2_000, System::nanoTime);
  }

  public MachineInfo machine() {
    return machine;
  }

  /** The revision every line of this run records. */
  public String gitRevision() {
    return gitRevision;
  }

  public ResultsStore store() {
    return store;
  }

  /** Tables and summaries for the person running the bench. */
  public PrintStream out() {
    return out;
  }

  /** Progress and diagnostics. */
  public PrintStream err() {
    return err;
  }
}
