package dev.levee.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.levee.bench.demo.DemoTable;
import dev.levee.bench.gen.Datasets;
import dev.levee.bench.report.FigureRegistry;
import dev.levee.bench.results.Measurement;
import dev.levee.bench.results.RepoLayout;
import dev.levee.bench.results.RunFigures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run never writes into the checkout's tracked files: suites, the demo and its report write under
 * {@code .levee/runs/<run-id>/}, which git ignores; only {@code publish} writes to {@code
 * bench/results}.
 */
class RunLayoutTest {
  @TempDir Path root;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** A stand-in for demo-hadoop: records stock and plugin rows tagged with the run id. */
  private static final Suite DEMO =
      new Suite() {
        @Override
        public String name() {
          return "demo-hadoop";
        }

        @Override
        public String summary() {
          return "test demo";
        }

        @Override
        public Object newOptions() {
          return new RunIdOption();
        }

        @Override
        public void run(SuiteContext c) {
          Map<String, Object> p =
              Map.of(
                  DemoTable.RUN_ID, c.options(RunIdOption.class).runId,
                  DemoTable.MODULE, "spongefiles-hadoop",
                  DemoTable.WORKLOAD, "median of 10 numbers, 1 reducer");
          c.record(Measurement.STOCK, p, Map.of(DemoTable.SECONDS, 10.0), 0);
          c.record(DemoTable.PLUGIN, p, Map.of(DemoTable.SECONDS, 8.0), 0);
        }
      };

  /** A suite that draws its own figure, as the Themis and Piranha suites do. */
  private static final Suite DRAWS =
      new Suite() {
        @Override
        public String name() {
          return "draws";
        }

        @Override
        public String summary() {
          return "test suite with its own figure";
        }

        @Override
        public Object newOptions() {
          return new Object();
        }

        @Override
        public void run(SuiteContext c) throws Exception {
          c.record(Measurement.STOCK, Map.of(), Map.of(DemoTable.SECONDS, 1.0), 0);
          Files.writeString(RunFigures.dir(c, "").resolve("draws-own.png"), "png");
        }
      };

  private int run(String... args) throws IOException {
    Files.createDirectories(root.resolve("bench"));
    return new BenchCli(
            "BenchMain",
            SuiteRegistry.empty().with(DEMO).with(DRAWS),
            Datasets.builtIn(),
            new PrintStream(out, true),
            new PrintStream(err, true),
            root,
            FigureRegistry.discover(getClass().getClassLoader()))
        .run(args);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private List<Path> filesUnder(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).toList();
    }
  }

  @Test
  void aSuiteWithoutResultsWritesToANewRunDirectory() throws Exception {
    assertEquals(0, run("demo-hadoop"), err());
    List<Path> written = filesUnder(root);
    assertEquals(1, written.size(), written.toString());
    Path jsonl = written.get(0);
    assertTrue(jsonl.startsWith(RepoLayout.runsDir(root)), jsonl.toString());
    String runId = RepoLayout.runsDir(root).relativize(jsonl).getName(0).toString();
    assertTrue(runId.matches("demo-hadoop-\\d{8}T\\d{6}Z"), runId);
    assertTrue(err().contains("./levee publish " + runId), err());
  }

  @Test
  void theDemoReportWritesOnlyUnderItsRunDirectory() throws Exception {
    String runId = "demo-20260101T000000Z";
    Path runDir = RepoLayout.runDir(root, runId);
    assertEquals(0, run("demo-hadoop", "--run-id", runId, "--results", runDir.toString()), err());
    assertEquals(0, run("report", "--demo", runId), err());

    List<Path> written = filesUnder(root);
    for (Path f : written) {
      assertTrue(f.startsWith(runDir), f + " is outside the run directory " + runDir);
    }
    assertTrue(Files.readString(runDir.resolve("DEMO.md")).contains("| spongefiles-hadoop |"));
    assertTrue(Files.isRegularFile(runDir.resolve("REPORT.md")));
    assertTrue(Files.isRegularFile(runDir.resolve("figures/demo-stock-vs-plugin.png")));
    assertFalse(Files.exists(RepoLayout.resultsDir(root)), "bench/results untouched");
  }

  @Test
  void publishAppendsARunOnceAndRegeneratesTheCommittedReport() throws Exception {
    String runId = "demo-20260101T000000Z";
    Path runDir = RepoLayout.runDir(root, runId);
    Path committed = RepoLayout.resultsDir(root);
    Files.createDirectories(committed);
    String older = "{\"suite\":\"demo-hadoop\",\"variant\":\"stock\",\"metrics\":{\"seconds\":1}}";
    Files.writeString(committed.resolve("demo-hadoop.jsonl"), older + "\n");
    assertEquals(0, run("demo-hadoop", "--run-id", runId, "--results", runDir.toString()), err());
    assertEquals(0, run("report", "--demo", runId), err());

    assertEquals(0, run("publish", "--latest"), err());
    List<String> lines = Files.readAllLines(committed.resolve("demo-hadoop.jsonl"));
    assertEquals(3, lines.size(), "the old line kept, the run's two appended: " + lines);
    assertEquals(older, lines.get(0));
    assertEquals(
        Files.readString(runDir.resolve("DEMO.md")),
        Files.readString(committed.resolve("DEMO.md")));
    assertTrue(Files.isRegularFile(committed.resolve("REPORT.md")));
    assertTrue(Files.isRegularFile(committed.resolve("figures/demo-stock-vs-plugin.png")));

    assertEquals(0, run("publish", runId), err());
    assertEquals(
        3, Files.readAllLines(committed.resolve("demo-hadoop.jsonl")).size(), "idempotent");

    err.reset();
    assertEquals(2, run("publish", "demo-19990101T000000Z"));
    assertTrue(err().contains("no run 'demo-19990101T000000Z'") && err().contains(runId), err());
    err.reset();
    assertEquals(2, run("publish", "../../etc"));
    assertTrue(err().contains("must be letters, digits"), err());
  }

  @Test
  void aSuitesOwnFigureStaysInItsRunUntilPublished() throws Exception {
    assertEquals(0, run("draws"), err());
    List<Path> drawn =
        filesUnder(root).stream().filter(p -> p.toString().endsWith(".png")).toList();
    assertEquals(1, drawn.size(), drawn.toString());
    assertTrue(drawn.get(0).startsWith(RepoLayout.runsDir(root)), drawn.toString());
    assertFalse(Files.exists(RepoLayout.resultsDir(root)), "bench/results untouched");

    assertEquals(0, run("publish", "--latest"), err());
    Path committed = RepoLayout.resultsDir(root).resolve("figures/draws-own.png");
    assertFalse(Files.exists(committed), "without --figures the run's own figure stays in the run");
    assertTrue(err().contains("figures/draws-own.png drawn by the run from itself alone"), err());

    assertEquals(0, run("publish", "--latest", "--figures"), err());
    assertEquals(
        "png",
        Files.readString(committed),
        "publish --figures copies the suite's figure into the committed figures");
  }

  /** The real repository's .gitignore covers the run directories. */
  @Test
  void gitIgnoresTheRunDirectories() throws Exception {
    Path repo = RepoLayout.repoRoot(Path.of(""));
    assumeTrue(Files.exists(repo.resolve(".git")), "not a git checkout");
    Path inRun = RepoLayout.runDir(repo, "demo-20260101T000000Z").resolve("figures/x.png");
    List<String> cmd = new ArrayList<>(List.of("git", "check-ignore", "-q", "--no-index"));
    cmd.add(repo.relativize(inRun).toString());
    Process p;
    try {
      p = new ProcessBuilder(cmd).directory(repo.toFile()).redirectErrorStream(true).start();
    } catch (IOException e) {
      assumeTrue(false, "no git: " + e.getMessage());
      return;
    }
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), inRun + " must be ignored by git");
  }

  /** The test demo's option. */
  static final class RunIdOption {
    @picocli.CommandLine.Option(names = "--run-id")
    String runId = "demo-x";
  }
}
