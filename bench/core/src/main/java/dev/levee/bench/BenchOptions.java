package dev.levee.bench;

import dev.levee.bench.cli.Range;
import dev.levee.bench.results.RepoLayout;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The options of the bench's own commands, and those every suite takes. */
final class BenchOptions {
  private BenchOptions() {}

  /** Added to every suite's options. */
  static final class ForSuites {
    @Option(
        names = "--results",
        paramLabel = "DIR",
        description =
            "results directory (default: a new run directory <repo>/"
                + RepoLayout.RUNS
                + "/<suite>-<time>)")
    String results = "";
  }

  static final class Generate {
    @Option(
        names = "--out",
        required = true,
        paramLabel = "URI",
        description = "output directory: a path, file:///..., hdfs://...")
    String out;

    @Option(
        names = "--records",
        required = true,
        paramLabel = "N",
        description = "number of records (k, m, g = 10^3, 10^6, 10^9)")
    @Range(min = 0)
    Long records;

    @Option(
        names = "--seed",
        required = true,
        paramLabel = "S",
        description = "random seed; the same seed and options give byte-identical output")
    Long seed;

    @Option(
        names = "--files",
        paramLabel = "N",
        description = "number of part files (one per intended mapper)")
    @Range(min = 1, max = 100_000)
    int files = 1;

    @Option(names = "--threads", paramLabel = "N", description = "parallel writers")
    @Range(min = 1, max = 1024)
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--overwrite", description = "replace --out if it exists")
    boolean overwrite;
  }

  static final class Report {
    @Option(
        names = "--results",
        paramLabel = "DIR",
        description =
            "results to report on (default <repo>/"
                + RepoLayout.DEFAULT_RESULTS
                + ", or the run's directory with --run/--demo)")
    String results = "";

    @Option(
        names = "--out",
        paramLabel = "DIR",
        description = "where REPORT.md and figures/ go (default: the results directory)")
    String out = "";

    @Option(
        names = "--run",
        paramLabel = "RUN_ID",
        description = "report on one run: <repo>/" + RepoLayout.RUNS + "/RUN_ID")
    String run = "";

    @Option(
        names = "--demo",
        paramLabel = "RUN_ID",
        description =
            "also print that ./levee demo run's table and write it to DEMO.md (implies --run)")
    String demo = "";
  }

  static final class Publish {
    @Parameters(arity = "0..1", paramLabel = "RUN_ID", description = "the run to publish")
    String runId;

    @Option(names = "--latest", description = "publish the most recent run")
    boolean latest;

    @Option(
        names = "--figures",
        description =
            "also replace the committed figures with the ones the run drew from itself alone"
                + " (without it they stay in the run, listed: a narrow run would replace a figure"
                + " of a whole sweep)")
    boolean figures;

    @Option(
        names = "--results",
        paramLabel = "DIR",
        description = "committed results (default <repo>/" + RepoLayout.DEFAULT_RESULTS + ")")
    String results = "";
  }
}
