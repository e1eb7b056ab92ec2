package dev.levee.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.levee.bench.gen.Datasets;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCliTest {
  @TempDir Path tmp;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(SuiteRegistry suites, String... args) {
    return new BenchCli(
            "BenchMain",
            suites,
            Datasets.builtIn(),
            new PrintStream(out, true),
            new PrintStream(err, true))
        .run(args);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void physicalLimitsIsFoundThroughTheServiceFile() {
    SuiteRegistry r = SuiteRegistry.discover(getClass().getClassLoader());
    assertTrue(r.contains("physical-limits"), r.names().toString());
    assertEquals(0, run(r, "--help"));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("physical-limits"));
  }

  @Test
  void listSuitesPrintsOneNamePerLineForTheLauncher() {
    SuiteRegistry r = SuiteRegistry.discover(getClass().getClassLoader());
    assertEquals(0, run(r, "--list-suites"));
    assertEquals(
        List.copyOf(r.names()), List.of(out.toString(StandardCharsets.UTF_8).strip().split("\\R")));
  }

  @Test
  void everySuitesDefaultsPassTheirOwnChecks() {
    assertTrue(
        SuiteOptionsCheck.checkEverySuite(SuiteRegistry.discover(getClass().getClassLoader()))
            >= 1);
  }

  @Test
  void badArgumentsExitTwoWithAMessageNamingThem() {
    SuiteRegistry r = SuiteRegistry.discover(getClass().getClassLoader());
    assertEquals(2, run(r, "generate", "zipff", "--out", "x"));
    assertTrue(
        err()
            .contains(
                "unknown dataset 'zipff'; allowed: zipf, uniform, pareto, terasort, web, text, graph,"
                    + " clicks"),
        err());
    err.reset();
    assertEquals(
        2,
        run(
            r,
            "generate",
            "zipf",
            "--out",
            tmp.toString(),
            "--records",
            "10",
            "--seed",
            "1",
            "--s",
            "0"));
    assertTrue(err().contains("--s: expected a value > 0 and <= 100, got 0"), err());
    err.reset();
    assertEquals(2, run(r, "generate", "zipf", "--records", "10", "--seed", "1"));
    assertTrue(err().contains("Missing required option: '--out=URI'"), err());
    err.reset();
    assertEquals(2, run(r, "physical-limits", "--repetitons", "3"));
    assertTrue(
        err().contains("'--repetitons'")
            && err().contains("did you mean --repetitions")
            && err().contains("allowed: --repetitions, --probes"),
        err());
    err.reset();
    assertEquals(2, run(r, "physical-limits", "--disk", "Emulated"));
    assertTrue(err().contains("--disk: expected one of real, emulated, got 'Emulated'"), err());
    err.reset();
    assertEquals(2, run(r, "physical-limits", "--repetitions", "0"));
    assertTrue(err().contains("--repetitions: expected a value from 1 to 1000, got 0"), err());
    err.reset();
    assertEquals(2, run(r, "physical-limits", "--tcp-bytes", "lots"));
    assertTrue(err().contains("expected a size such as 4096, 64k, 512m or 2g, got 'lots'"), err());
    err.reset();
    assertEquals(2, run(r, "physical-limits", "--repetitions", "2", "--repetitions", "3"));
    assertTrue(err().contains("should be specified only once"), err());
    err.reset();
    assertEquals(2, run(r, "physical-limits", "--probes", "gpu"));
    assertTrue(
        err().contains("--probes: unknown probe 'gpu'; allowed: memcpy, tcp, disk, shm"), err());
    err.reset();
    assertEquals(2, run(r, "nosuch"));
    assertTrue(
        err()
            .contains(
                "unknown command 'nosuch'; commands: generate, report, publish, physical-limits"),
        err());
    err.reset();
    assertEquals(0, run(r, "physical-limits", "--help"));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("--disk-bytes=SIZE"));
  }

  @Test
  void generateThroughTheCli() throws Exception {
    SuiteRegistry r = SuiteRegistry.empty();
    Path dir = tmp.resolve("data");
    assertEquals(
        0,
        run(
            r,
            "generate",
            "terasort",
            "--out",
            dir.toUri().toString(),
            "--records",
            "1k",
            "--seed",
            "3",
            "--files",
            "2"),
        err());
    assertEquals(50_000, Files.size(dir.resolve("part-00000")));
    assertEquals(50_000, Files.size(dir.resolve("part-00001")));
  }

  /**
   * A real, tiny physical-limits run: every probe records positive bandwidth lines, and report
   * reads them.
   */
  @Test
  void physicalLimitsRecordsEveryProbeAndReportsThem() throws Exception {
    SuiteRegistry r = SuiteRegistry.discover(getClass().getClassLoader());
    Path results = tmp.resolve("results");
    int rc =
        run(
            r,
            "physical-limits",
            "--results",
            results.toString(),
            "--repetitions",
            "2",
            "--memcpy-buffer",
            "4m",
            "--memcpy-passes",
            "2",
            "--tcp-bytes",
            "8m",
            "--disk-bytes",
            "8m",
            "--disk-dir",
            tmp.toString(),
            "--shm-bytes",
            "4m");
    assertEquals(0, rc, err());
    List<String> lines = Files.readAllLines(results.resolve("physical-limits.jsonl"));
    Set<String> variants = new HashSet<>();
    ObjectMapper json = new ObjectMapper();
    for (String line : lines) {
      JsonNode n = json.readTree(line);
      variants.add(n.get("variant").asText());
      assertTrue(n.get("metrics").get("mb_per_s").asDouble() > 0, line);
      assertTrue(n.get("command").asText().startsWith("BenchMain physical-limits"), line);
    }
    assertEquals(2 * 7, lines.size());
    assertTrue(
        variants.containsAll(
            Set.of(
                "memcpy-heap",
                "memcpy-direct",
                "tcp-loopback",
                "disk-write-fsync",
                "shm-mmap-write-new",
                "shm-mmap-rewrite")),
        variants.toString());
    assertTrue(
        variants.contains("disk-read-direct") || variants.contains("disk-read-cached"),
        variants.toString());
    String table = out.toString(StandardCharsets.UTF_8);
    assertTrue(table.contains("memcpy-heap") && table.contains("median"), table);
    try (var files = Files.list(tmp)) {
      assertTrue(
          files.noneMatch(f -> f.getFileName().toString().startsWith("levee-physical-limits")),
          "probe files are removed");
    }

    out.reset();
    assertEquals(0, run(r, "report", "--results", results.toString()), err());
    assertTrue(Files.readString(results.resolve("REPORT.md")).contains("| tcp-loopback |"));
    try (var files = Files.list(results)) {
      assertTrue(
          files.noneMatch(f -> f.getFileName().toString().endsWith(".png")),
          "no chart per metric: figures go to figures/, and only curated ones");
    }
  }

  @Test
  void extraSuitesRegisterWithoutTouchingTheCli() {
    Suite custom =
        new Suite() {
          @Override
          public String name() {
            return "sponge-micro";
          }

          @Override
          public String summary() {
            return "test suite";
          }

          @Override
          public Object newOptions() {
            return new RecordsOption();
          }

          @Override
          public void run(SuiteContext context) {
            long n = context.options(RecordsOption.class).records;
            context.record("stock", Map.of("records", n), Map.of("seconds", 2.0), 0);
            context.record("sponge", Map.of("records", n), Map.of("seconds", 1.0), 0);
          }
        };
    SuiteRegistry r = SuiteRegistry.empty().with(custom);
    Path results = tmp.resolve("r");
    assertEquals(
        0, run(r, "sponge-micro", "--records", "5", "--results", results.toString()), err());
    assertEquals(0, run(r, "report", "--results", results.toString()), err());
    assertTrue(
        out.toString(StandardCharsets.UTF_8).contains("| sponge | records=5 | 0.500 |"),
        out.toString(StandardCharsets.UTF_8));
  }

  /** The options of the test's own suite. */
  static final class RecordsOption {
    @picocli.CommandLine.Option(names = "--records")
    long records = 10;
  }
}
