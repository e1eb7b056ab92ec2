package dev.levee.bench;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.OptionsCommand;
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

  public static final String DEMO_FILE = "DEMO.md";

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
          return generate(rest);
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
      boolean known =
          List.of("generate", "report", "publish").contains(command) || suites.contains(command);
      err.println(
          "run '"
              + programName
              + (known ? " " + command + " --help' for its options" : " --help' for usage"));
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
    Object options = suite.newOptions();
    BenchOptions.ForSuites common = new BenchOptions.ForSuites();
    OptionsCommand command = suiteCommand(suite, options, common);
    if (!command.parse(args)) {
      out.print(command.usage());
      return OK;
    }
    boolean newRun = common.results.isEmpty();
    Path dir =
        newRun
            ? RepoLayout.runDir(repoRoot, RepoLayout.newRunId(suite.name(), Instant.now()))
            : Path.of(common.results).toAbsolutePath();
    ResultsStore store = new ResultsStore(dir);
    SuiteContext ctx =
        new SuiteContext(
            suite.name(),
            options,
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

  private int generate(List<String> args) throws Exception {
    if (args.isEmpty() || args.get(0).startsWith("--")) {
      if (args.contains("--help")) {
        out.print(commandHelp("generate"));
        return OK;
      }
      throw new BadArgumentException("generate needs a dataset first; allowed: " + datasetNames());
    }
    return generate(datasets.get(args.get(0)), args.subList(1, args.size()));
  }

  private <O> int generate(Dataset<O> dataset, List<String> args) throws Exception {
    BenchOptions.Generate g = new BenchOptions.Generate();
    O own = dataset.newOptions();
    OptionsCommand command = generateCommand(dataset, g, own);
    if (!command.parse(args)) {
      out.print(command.usage());
      return OK;
    }
    RecordGenerator generator = dataset.configure(g.seed, own);
    DatasetWriter.Plan plan =
        new DatasetWriter.Plan(g.out, g.records, g.files, g.threads, g.overwrite);
    DatasetWriter.Result r;
    try (ProgressReporter progress =
        new ProgressReporter(
            "generate " + dataset.name(), g.records, "records", err, 2_000, System::nanoTime)) {
      r =
          new DatasetWriter(new Configuration())
              .write(dataset.name(), g.seed, generator, command.effectiveValues(), plan, progress);
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

  private int report(List<String> args) throws Exception {
    BenchOptions.Report o = new BenchOptions.Report();
    OptionsCommand command = reportCommand(o);
    if (!command.parse(args)) {
      out.print(command.usage());
      return OK;
    }
    String demo = o.demo;
    String run = o.run.isEmpty() ? demo : o.run;
    Path resultsDir;
    if (!o.results.isEmpty()) {
      resultsDir = Path.of(o.results).toAbsolutePath();
    } else if (!run.isEmpty()) {
      resultsDir = runDir(run);
    } else {
      resultsDir = RepoLayout.resultsDir(repoRoot);
    }
    ResultsStore store = new ResultsStore(resultsDir);
    Path outDir = o.out.isEmpty() ? store.dir() : Path.of(o.out);
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

  private int publish(List<String> args) throws Exception {
    BenchOptions.Publish o = new BenchOptions.Publish();
    OptionsCommand command = publishCommand(o);
    if (!command.parse(args)) {
      out.print(command.usage());
      return OK;
    }
    String runId;
    if (o.latest && o.runId != null) {
      throw new BadArgumentException("publish: give a run id or --latest, not both");
    }
    if (o.latest) {
      runId =
          RepoLayout.latestRun(repoRoot)
              .orElseThrow(
                  () ->
                      new BadArgumentException(
                          "publish --latest: there are no runs under "
                              + RepoLayout.runsDir(repoRoot)));
    } else if (o.runId != null) {
      runId = o.runId;
    } else {
      throw new BadArgumentException(
          "publish needs one run id or --latest; runs are the directories of "
              + RepoLayout.runsDir(repoRoot));
    }
    Path run = runDir(runId);
    Path target =
        o.results.isEmpty() ? RepoLayout.resultsDir(repoRoot) : Path.of(o.results).toAbsolutePath();
    RunPublisher.Published p = RunPublisher.publish(run, target, o.figures);
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

  private OptionsCommand suiteCommand(Suite suite, Object options, Object common) {
    return new OptionsCommand(
        programName + " " + suite.name() + " [options]", suite.summary(), options, common);
  }

  private OptionsCommand generateCommand(Dataset<?> dataset, Object common, Object own) {
    return new OptionsCommand(
        programName + " generate " + dataset.name() + " --out URI --records N --seed S [options]",
        dataset.name() + ": " + dataset.summary(),
        common,
        own);
  }

  private OptionsCommand reportCommand(Object options) {
    return new OptionsCommand(
        programName + " report [--run RUN_ID | --demo RUN_ID | --results DIR] [--out DIR]",
        "REPORT.md and the figures from the results files",
        options);
  }

  private OptionsCommand publishCommand(Object options) {
    return new OptionsCommand(
        programName + " publish <run-id> | --latest [--figures]",
        "appends the run's <suite>.jsonl lines that are not there yet to the committed results,"
            + " copies its DEMO.md if any, and regenerates REPORT.md and figures/ there.",
        options);
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
    return switch (command) {
      case "generate" ->
          "usage: "
              + programName
              + " generate <dataset> --out URI --records N --seed S [options]\n"
              + "datasets: "
              + datasetNames()
              + "\n'"
              + programName
              + " generate <dataset> --help' shows the common options and the dataset's own.\n";
      case "report" -> reportCommand(new BenchOptions.Report()).usage();
      case "publish" -> publishCommand(new BenchOptions.Publish()).usage();
      default -> {
        Suite s = suites.get(command);
        yield suiteCommand(s, s.newOptions(), new BenchOptions.ForSuites()).usage();
      }
    };
  }
}
