package dev.levee.bench;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
import dev.levee.bench.cli.Sizes;
import dev.levee.bench.demo.DemoTable;
import dev.levee.bench.gen.Dataset;
import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.gen.Datasets;
import dev.levee.bench.gen.RecordGenerator;
import dev.levee.bench.progress.ProgressReporter;
import dev.levee.bench.report.FigureRegistry;
import dev.levee.bench.report.ReportWriter;
import dev.levee.bench.results.GitRevision;
import dev.levee.bench.results.MachineInfo;
import dev.levee.bench.results.Measurement;
import dev.levee.bench.results.RepoLayout;
import dev.levee.bench.results.ResultsStore;
import dev.levee.bench.results.RunPublisher;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;

/**
 * The bench command line: {@code generate}, {@code report}, {@code publish}, and every registered
 * {@link Suite} by name. Engine-side runners (bench/hadoop, bench/spark) call {@link
 * #run(String[])} from their main class with their registry.
 *
 * <p>Runs never write into the committed results: a suite without {@code --results} writes to a new
 * git-ignored run directory {@code .levee/runs/<suite>-<UTC time>/}, and {@code publish <run-id>}
 * appends that run's lines to {@code bench/results/<suite>.jsonl} (the history) and regenerates the
 * committed report and figures.
 *
 * <p>Exit status: 0 done, 2 bad arguments (the message names the argument and what is allowed), 1
 * the run failed.
 */
public final class BenchCli {
  public static final int OK = 0;
  public static final int FAILED = 1;
  public static final int BAD_ARGUMENTS = 2;

  private static final OptionSpec RESULTS =
      OptionSpec.optional(
          "results",
          "DIR",
          "results directory (default: a new run directory <repo>/"
              + RepoLayout.RUNS
              + "/<suite>-<time>)",
          "");
  private static final OptionSpec REPORT_RESULTS =
      OptionSpec.optional(
          "results",
          "DIR",
          "results to report on (default <repo>/"
              + RepoLayout.DEFAULT_RESULTS
              + ", or the run's directory with --run/--demo)",
          "");
  private static final OptionSpec REPORT_OUT =
      OptionSpec.optional(
          "out", "DIR", "where REPORT.md and figures/ go (default: the results directory)", "");
  private static final OptionSpec REPORT_RUN =
      OptionSpec.optional(
          "run", "RUN_ID", "report on one run: <repo>/" + RepoLayout.RUNS + "/RUN_ID", "");
  private static final OptionSpec REPORT_DEMO =
      OptionSpec.optional(
          "demo",
          "RUN_ID",
          "also print that ./levee demo run's table and write it to DEMO.md (implies --run)",
          "");
  private static final OptionSpec PUBLISH_LATEST =
      OptionSpec.flag("latest", "publish the most recent run");
  private static final OptionSpec PUBLISH_FIGURES =
      OptionSpec.flag(
          "figures",
          "also replace the committed figures with the ones the run drew from itself alone (without"
              + " it they stay in the run, listed: a narrow run would replace a figure of a whole"
              + " sweep)");
  private static final OptionSpec PUBLISH_TARGET =
      OptionSpec.optional(
          "results",
          "DIR",
          "committed results (default <repo>/" + RepoLayout.DEFAULT_RESULTS + ")",
          "");
  public static final String DEMO_FILE = "DEMO.md";
  private static final OptionSpec HELP = OptionSpec.flag("help", "show this help");

  private final String programName;
  private final SuiteRegistry suites;
  private final Datasets datasets;
  private final PrintStream out;
  private final PrintStream err;
  private final Path repoRoot;
  private final ReportWriter reports;

  public BenchCli(
      String programName,
      SuiteRegistry suites,
      Datasets datasets,
      PrintStream out,
      PrintStream err) {
    this(
        programName,
        suites,
        datasets,
        out,
        err,
        RepoLayout.repoRoot(Path.of("")),
        FigureRegistry.discover(BenchCli.class.getClassLoader()));
  }

  /** With an explicit repository root (where bench/results and .levee/runs are) and figures. */
  public BenchCli(
      String programName,
      SuiteRegistry suites,
      Datasets datasets,
      PrintStream out,
      PrintStream err,
      Path repoRoot,
      FigureRegistry figures) {
    this.programName = programName;
    this.suites = suites;
    this.datasets = datasets;
    this.out = out;
    this.err = err;
    this.repoRoot = repoRoot.toAbsolutePath().normalize();
    this.reports = new ReportWriter(figures);
  }

  public int run(String[] argv) {
    List<String> args = Arrays.asList(argv);
    String command = args.isEmpty() ? "--help" : args.get(0);
    List<String> rest = args.isEmpty() ? List.of() : args.subList(1, args.size());
    try {
      switch (command) {
        case "--help", "-h", "help" -> {
          if (rest.isEmpty()) {
            out.print(usage());
          } else {
            out.print(commandHelp(rest.get(0)));
          }
          return OK;
        }
        case "--list-suites" -> {
          // The launcher asks each side for its suites instead of guessing the side from a name.
          suites.names().forEach(out::println);
          return OK;
        }
        case "--suite-summaries" -> {
          // For the launcher's help: the other side's suites, one line each, without the usage.
          suites.all().forEach(s -> out.printf("  %-22s %s%n", s.name(), s.summary()));
          return OK;
        }
        case "generate" -> {
          return generate(rest, argv);
        }
        case "report" -> {
          return report(rest);
        }
        case "publish" -> {
          return publish(rest);
        }
        default -> {
          if (command.startsWith("-")) {
            throw new BadArgumentException(
                "expected a command before options, got '"
                    + command
                    + "'; commands: "
                    + commandNames());
          }
          if (!suites.contains(command)) {
            throw new BadArgumentException(
                "unknown command '" + command + "'; commands: " + commandNames());
          }
          return runSuite(suites.get(command), rest, argv);
        }
      }
    } catch (BadArgumentException e) {
      err.println("error: " + e.getMessage());
      err.println("run '" + programName + " --help' for usage");
      return BAD_ARGUMENTS;
    } catch (NoClassDefFoundError e) {
      // Hadoop and Jackson are 'provided': a runner whose classpath lacks them fails here, not with
      // a bare trace.
      err.println(
          "error: "
              + command
              + ": class "
              + e.getMessage().replace('/', '.')
              + " is not on the classpath; the runner must supply hadoop-common and jackson-databind");
      return FAILED;
    } catch (Exception e) {
      err.println("error: " + command + " failed: " + e);
      e.printStackTrace(err);
      return FAILED;
    }
  }

  private int runSuite(Suite suite, List<String> args, String[] argv) throws Exception {
    List<OptionSpec> specs = new ArrayList<>(suite.options());
    specs.add(RESULTS);
    specs.add(HELP);
    ParsedOptions o = ParsedOptions.parse(withoutRequired(specs, args), args);
    if (o.flag("help")) {
      out.print(commandHelp(suite.name()));
      return OK;
    }
    o = ParsedOptions.parse(specs, args);
    noPositional(suite.name(), o);
    boolean newRun = o.string("results").isEmpty();
    Path dir =
        newRun
            ? RepoLayout.runDir(repoRoot, RepoLayout.newRunId(suite.name(), Instant.now()))
            : Path.of(o.string("results")).toAbsolutePath();
    ResultsStore store = new ResultsStore(dir);
    SuiteContext ctx =
        new SuiteContext(
            suite.name(),
            o,
            store,
            MachineInfo.current(),
            GitRevision.of(RepoLayout.repoRoot(Path.of(""))),
            commandLine(argv),
            out,
            err);
    suite.run(ctx);
    // A suite that only redrew figures appended nothing: saying otherwise sends a reader to look
    // for new lines.
    err.println(
        store.appended() == 0
            ? suite.name() + ": no result lines appended"
            : suite.name()
                + ": "
                + store.appended()
                + " result lines appended to "
                + store.fileFor(suite.name()));
    if (newRun) {
      err.println(
          suite.name()
              + ": to add them to the committed results: ./levee publish "
              + dir.getFileName());
    }
    return OK;
  }

  private int generate(List<String> args, String[] argv) throws Exception {
    if (args.isEmpty() || args.get(0).startsWith("--")) {
      if (args.contains("--help")) {
        out.print(commandHelp("generate"));
        return OK;
      }
      throw new BadArgumentException("generate needs a dataset first; allowed: " + datasetNames());
    }
    Dataset dataset = datasets.get(args.get(0));
    List<String> rest = args.subList(1, args.size());
    List<OptionSpec> specs = new ArrayList<>(generateOptions());
    specs.addAll(dataset.options());
    if (rest.contains("--help")) {
      out.print(datasetHelp(dataset));
      return OK;
    }
    ParsedOptions o = ParsedOptions.parse(specs, rest);
    noPositional("generate " + dataset.name(), o);
    long seed = o.longAtLeast("seed", Long.MIN_VALUE);
    long records = o.longAtLeast("records", 0);
    int files = o.intIn("files", 1, 100_000);
    int threads = o.intIn("threads", 1, 1024);
    RecordGenerator generator = dataset.configure(seed, o);
    DatasetWriter.Plan plan =
        new DatasetWriter.Plan(o.string("out"), records, files, threads, o.flag("overwrite"));
    DatasetWriter.Result r;
    try (ProgressReporter progress =
        new ProgressReporter(
            "generate " + dataset.name(), records, "records", err, 2_000, System::nanoTime)) {
      r =
          new DatasetWriter(new Configuration())
              .write(dataset.name(), seed, generator, o.effectiveValues(), plan, progress);
    }
    out.printf(
        Locale.ROOT,
        "wrote %d %s records (%s) in %d files to %s in %.1f s (%.0f records/s, %.1f MB/s)%n",
        r.records(),
        dataset.name(),
        Sizes.format(r.bytes()),
        r.files().size(),
        r.dir(),
        r.seconds(),
        r.records() / r.seconds(),
        r.bytes() / 1e6 / r.seconds());
    return OK;
  }

  private static List<OptionSpec> reportOptions() {
    return List.of(REPORT_RESULTS, REPORT_OUT, REPORT_RUN, REPORT_DEMO, HELP);
  }

  private int report(List<String> args) throws Exception {
    ParsedOptions o = ParsedOptions.parse(reportOptions(), args);
    if (o.flag("help")) {
      out.print(commandHelp("report"));
      return OK;
    }
    noPositional("report", o);
    String demo = o.string("demo");
    String run = o.string("run").isEmpty() ? demo : o.string("run");
    Path resultsDir;
    if (!o.string("results").isEmpty()) {
      resultsDir = Path.of(o.string("results")).toAbsolutePath();
    } else if (!run.isEmpty()) {
      resultsDir = runDir(run);
    } else {
      resultsDir = RepoLayout.resultsDir(repoRoot);
    }
    ResultsStore store = new ResultsStore(resultsDir);
    Path outDir = o.string("out").isEmpty() ? store.dir() : Path.of(o.string("out"));
    List<Measurement> all = store.readAll();
    String md = reports.write(all, outDir);
    if (!demo.isEmpty()) {
      return demoTable(demo, all, outDir);
    }
    out.print(md);
    err.println(
        "report: wrote "
            + outDir.resolve(ReportWriter.REPORT_FILE)
            + " and "
            + outDir.resolve(FigureRegistry.FIGURES_DIR)
            + "/");
    return OK;
  }

  private int demoTable(String runId, List<Measurement> all, Path outDir) throws IOException {
    String table = DemoTable.render(runId, all);
    Files.writeString(
        outDir.resolve(DEMO_FILE),
        "# ./levee demo, run "
            + runId
            + "\n\n"
            + table
            + "\n![stock vs plugin per module]("
            + FigureRegistry.FIGURES_DIR
            + "/demo-stock-vs-plugin.png)\n\nAll metrics: ["
            + ReportWriter.REPORT_FILE
            + "]("
            + ReportWriter.REPORT_FILE
            + ").\n");
    out.println();
    out.print(table);
    err.println(
        "report: wrote "
            + outDir.resolve(DEMO_FILE)
            + ", "
            + outDir.resolve(ReportWriter.REPORT_FILE)
            + " and "
            + outDir.resolve(FigureRegistry.FIGURES_DIR)
            + "/");
    return OK;
  }

  private static List<OptionSpec> publishOptions() {
    return List.of(PUBLISH_LATEST, PUBLISH_FIGURES, PUBLISH_TARGET, HELP);
  }

  private int publish(List<String> args) throws Exception {
    ParsedOptions o = ParsedOptions.parse(publishOptions(), args);
    if (o.flag("help")) {
      out.print(commandHelp("publish"));
      return OK;
    }
    String runId;
    if (o.flag("latest")) {
      noPositional("publish --latest", o);
      runId =
          RepoLayout.latestRun(repoRoot)
              .orElseThrow(
                  () ->
                      new BadArgumentException(
                          "publish --latest: there are no runs under "
                              + RepoLayout.runsDir(repoRoot)));
    } else if (o.positional().size() == 1) {
      runId = o.positional().get(0);
    } else {
      throw new BadArgumentException(
          "publish needs one run id or --latest; runs are the directories of "
              + RepoLayout.runsDir(repoRoot));
    }
    Path run = runDir(runId);
    Path target =
        o.string("results").isEmpty()
            ? RepoLayout.resultsDir(repoRoot)
            : Path.of(o.string("results")).toAbsolutePath();
    RunPublisher.Published p = RunPublisher.publish(run, target, o.flag("figures"));
    p.appendedLines()
        .forEach(
            (suite, n) ->
                err.println(
                    "publish: "
                        + suite
                        + ": "
                        + n
                        + " new line(s) appended to "
                        + target.resolve(suite + ".jsonl")));
    p.copied().forEach(f -> err.println("publish: " + f + " copied to " + target.resolve(f)));
    p.figuresNotCopied()
        .forEach(
            f ->
                err.println(
                    "publish: "
                        + f
                        + " drawn by the run from itself alone: left in "
                        + run.resolve(f)
                        + " (open it; publish --figures replaces the committed one)"));
    reports.write(new ResultsStore(target).readAll(), target);
    err.println(
        "publish: "
            + runId
            + ": "
            + p.total()
            + " line(s) published; regenerated "
            + target.resolve(ReportWriter.REPORT_FILE)
            + " and "
            + target.resolve(FigureRegistry.FIGURES_DIR)
            + "/ (review with git diff, then commit)");
    return OK;
  }

  /** An existing run's directory, or an error that names the runs there are. */
  private Path runDir(String runId) throws IOException {
    Path dir;
    try {
      dir = RepoLayout.runDir(repoRoot, runId);
    } catch (IllegalArgumentException e) {
      throw new BadArgumentException(e.getMessage());
    }
    if (!Files.isDirectory(dir)) {
      String latest = RepoLayout.latestRun(repoRoot).map(id -> " (latest: " + id + ")").orElse("");
      throw new BadArgumentException(
          "no run '" + runId + "' under " + RepoLayout.runsDir(repoRoot) + latest);
    }
    return dir;
  }

  private static List<OptionSpec> generateOptions() {
    return List.of(
        OptionSpec.required("out", "URI", "output directory: a path, file:///..., hdfs://..."),
        OptionSpec.required("records", "N", "number of records (k, m, g = 10^3, 10^6, 10^9)"),
        OptionSpec.required(
            "seed", "S", "random seed; the same seed and options give byte-identical output"),
        OptionSpec.optional("files", "N", "number of part files (one per intended mapper)", "1"),
        OptionSpec.optional(
            "threads",
            "N",
            "parallel writers",
            Integer.toString(Runtime.getRuntime().availableProcessors())),
        OptionSpec.flag("overwrite", "replace --out if it exists"));
  }

  /**
   * The exact command, for result lines: a launcher script may pass its own spelling in
   * -Dlevee.bench.command.
   */
  private String commandLine(String[] argv) {
    String given = System.getProperty("levee.bench.command");
    if (given != null && !given.isBlank()) {
      return given;
    }
    return programName
        + " "
        + Arrays.stream(argv)
            .map(a -> a.matches("[A-Za-z0-9_./:=,@+-]+") ? a : "'" + a + "'")
            .collect(Collectors.joining(" "));
  }

  private static void noPositional(String command, ParsedOptions o) {
    if (!o.positional().isEmpty()) {
      throw new BadArgumentException(
          command
              + ": unexpected argument '"
              + o.positional().get(0)
              + "' (options are written --name value)");
    }
  }

  /**
   * The same options with nothing required, to honour --help before complaining about missing
   * options.
   */
  private static List<OptionSpec> withoutRequired(List<OptionSpec> specs, List<String> args) {
    if (!args.contains("--help")) {
      return specs;
    }
    return specs.stream()
        .map(s -> s.isRequired() ? OptionSpec.optional(s.name(), s.valueHint(), s.help(), "") : s)
        .toList();
  }

  private String commandNames() {
    List<String> names = new ArrayList<>(List.of("generate", "report", "publish"));
    names.addAll(suites.names());
    return String.join(", ", names);
  }

  private String datasetNames() {
    return datasets.all().stream().map(Dataset::name).collect(Collectors.joining(", "));
  }

  String usage() {
    StringBuilder b = new StringBuilder();
    b.append("usage: ").append(programName).append(" <command> [options]\n\n");
    b.append("commands:\n");
    b.append(
        String.format(
            "  %-22s %s%n",
            "generate <dataset>", "write a synthetic dataset to any Hadoop file system"));
    b.append(
        String.format(
            "  %-22s %s%n", "report", "REPORT.md and the figures from the results files"));
    b.append(
        String.format(
            "  %-22s %s%n",
            "publish <run-id>",
            "append a run's results to the committed ones and regenerate their report"));
    for (Suite s : suites.all()) {
      b.append(String.format("  %-22s %s%n", s.name(), s.summary()));
    }
    b.append("\ndatasets:\n");
    for (Dataset d : datasets.all()) {
      b.append(String.format("  %-22s %s%n", d.name(), d.summary()));
    }
    b.append("\n'")
        .append(programName)
        .append(" <command> --help' shows a command's options;\n'")
        .append(programName)
        .append(" generate <dataset> --help' a dataset's.\n");
    return b.toString();
  }

  private String commandHelp(String command) {
    StringBuilder b = new StringBuilder();
    switch (command) {
      case "generate" -> {
        b.append("usage: ")
            .append(programName)
            .append(" generate <dataset> --out URI --records N --seed S [options]\n");
        b.append("datasets: ").append(datasetNames()).append("\n\n");
        generateOptions().forEach(s -> b.append(s.helpLine()).append('\n'));
      }
      case "report" -> {
        b.append("usage: ")
            .append(programName)
            .append(" report [--run RUN_ID | --demo RUN_ID | --results DIR] [--out DIR]\n\n");
        reportOptions().forEach(x -> b.append(x.helpLine()).append('\n'));
      }
      case "publish" -> {
        b.append("usage: ")
            .append(programName)
            .append(" publish <run-id> | --latest [--figures]\n");
        b.append(
            "appends the run's <suite>.jsonl lines that are not there yet to the committed results,"
                + "\ncopies its DEMO.md if any, and regenerates REPORT.md and figures/ there.\n\n");
        publishOptions().forEach(x -> b.append(x.helpLine()).append('\n'));
      }
      default -> {
        Suite s = suites.get(command);
        b.append("usage: ").append(programName).append(' ').append(s.name()).append(" [options]\n");
        b.append(s.summary()).append("\n\n");
        s.options().forEach(o -> b.append(o.helpLine()).append('\n'));
        b.append(RESULTS.helpLine()).append('\n');
      }
    }
    return b.toString();
  }

  private String datasetHelp(Dataset d) {
    StringBuilder b = new StringBuilder(commandHelp("generate"));
    b.append("\n").append(d.name()).append(": ").append(d.summary()).append('\n');
    d.options().forEach(o -> b.append(o.helpLine()).append('\n'));
    return b.toString();
  }
}
