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
import dev.levee.bench.report.ReportWriter;
import dev.levee.bench.results.GitRevision;
import dev.levee.bench.results.MachineInfo;
import dev.levee.bench.results.Measurement;
import dev.levee.bench.results.RepoLayout;
import dev.levee.bench.results.ResultsStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;

/**
 * The bench command line: {@code generate}, {@code report}, and every registered {@link Suite} by
 * name. Engine-side runners (bench/hadoop, bench/spark) call {@link #run(String[])} from their main
 * class with their registry.
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
          "results directory (default <repo>/" + RepoLayout.DEFAULT_RESULTS + ")",
          "");
  private static final String DEMO_FILE = "DEMO.md";
  private static final OptionSpec HELP = OptionSpec.flag("help", "show this help");

  private final String programName;
  private final SuiteRegistry suites;
  private final Datasets datasets;
  private final PrintStream out;
  private final PrintStream err;

  public BenchCli(
      String programName,
      SuiteRegistry suites,
      Datasets datasets,
      PrintStream out,
      PrintStream err) {
    this.programName = programName;
    this.suites = suites;
    this.datasets = datasets;
    this.out = out;
    this.err = err;
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
        case "generate" -> {
          return generate(rest, argv);
        }
        case "report" -> {
          return report(rest);
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
    ResultsStore store = new ResultsStore(resultsDir(o));
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
    err.println(suite.name() + ": results appended to " + store.fileFor(suite.name()));
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

  private int report(List<String> args) throws Exception {
    List<OptionSpec> specs =
        List.of(
            RESULTS,
            OptionSpec.optional(
                "out",
                "DIR",
                "where REPORT.md and the PNG charts go (default: the results directory)",
                ""),
            OptionSpec.optional(
                "demo",
                "RUN_ID",
                "print only the demo table of that ./levee demo run (also DEMO.md)",
                ""),
            HELP);
    ParsedOptions o = ParsedOptions.parse(specs, args);
    if (o.flag("help")) {
      out.print(commandHelp("report"));
      return OK;
    }
    noPositional("report", o);
    ResultsStore store = new ResultsStore(resultsDir(o));
    Path outDir = o.string("out").isEmpty() ? store.dir() : Path.of(o.string("out"));
    if (!o.string("demo").isEmpty()) {
      return demoTable(o.string("demo"), store, outDir);
    }
    String md = ReportWriter.write(store.readAll(), outDir);
    out.print(md);
    err.println("report: wrote " + outDir.resolve(ReportWriter.REPORT_FILE) + " and charts");
    return OK;
  }

  private int demoTable(String runId, ResultsStore store, Path outDir) throws IOException {
    List<Measurement> all = store.readAll();
    // Charts for the demo suites come with the full report; the table is what the person running
    // the demo reads.
    ReportWriter.write(all, outDir);
    String table = DemoTable.render(runId, all);
    Files.writeString(outDir.resolve(DEMO_FILE), "# ./levee demo, run " + runId + "\n\n" + table);
    out.println();
    out.print(table);
    err.println(
        "report: wrote "
            + outDir.resolve(DEMO_FILE)
            + "; full report and charts in "
            + outDir.resolve(ReportWriter.REPORT_FILE));
    return OK;
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

  private Path resultsDir(ParsedOptions o) {
    String dir = o.string("results");
    return dir.isEmpty() ? RepoLayout.defaultResultsDir() : Path.of(dir).toAbsolutePath();
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
    List<String> names = new ArrayList<>(List.of("generate", "report"));
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
            "  %-22s %s%n", "report", "Markdown tables and PNG charts from the results files"));
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
        b.append("usage: ").append(programName).append(" report [--results DIR] [--out DIR]\n\n");
        b.append(RESULTS.helpLine()).append('\n');
        b.append(
                OptionSpec.optional(
                        "out",
                        "DIR",
                        "where REPORT.md and the charts go (default: results dir)",
                        "")
                    .helpLine())
            .append('\n');
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
