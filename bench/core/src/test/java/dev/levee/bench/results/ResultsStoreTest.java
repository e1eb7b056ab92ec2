package dev.levee.bench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsStoreTest {
  @TempDir Path tmp;

  @Test
  void appendsOneJsonLinePerMeasurementAndReadsThemBack() throws Exception {
    ResultsStore store = new ResultsStore(tmp.resolve("results"));
    Measurement a =
        new Measurement(
            "sponge-micro",
            "stock",
            Map.of("records", 1000),
            Map.of("seconds", 1.5),
            0,
            MachineInfo.current().toMap(),
            "abc",
            "2026-01-01T00:00:00Z",
            "BenchMain sponge-micro");
    Measurement b =
        new Measurement(
            "sponge-micro",
            "sponge",
            Map.of("records", 1000),
            Map.of("seconds", 0.75),
            0,
            Map.of(),
            "abc",
            "2026-01-01T00:00:01Z",
            "BenchMain sponge-micro");
    store.append(a);
    store.append(b);
    List<String> lines = Files.readAllLines(tmp.resolve("results/sponge-micro.jsonl"));
    assertEquals(2, lines.size());
    JsonNode first = new ObjectMapper().readTree(lines.get(0));
    for (String field :
        List.of(
            "suite",
            "variant",
            "params",
            "metrics",
            "machine",
            "git_revision",
            "timestamp",
            "command")) {
      assertTrue(first.has(field), "field " + field + " in " + lines.get(0));
    }
    for (String field : List.of("cores", "memory_bytes", "os", "jvm", "cpu_model")) {
      assertTrue(first.get("machine").has(field), "machine." + field);
    }
    assertTrue(first.get("machine").get("cores").asInt() >= 1);
    List<Measurement> back = store.readAll();
    assertEquals(2, back.size());
    assertEquals(1.5, back.get(0).metrics().get("seconds"));
    assertEquals("sponge", back.get(1).variant());
    assertEquals(1000, ((Number) back.get(1).params().get("records")).intValue());
  }

  @Test
  void aBrokenLineIsReportedWithFileAndLineNumber() throws Exception {
    ResultsStore store = new ResultsStore(tmp);
    store.append(
        new Measurement("x", "v", Map.of(), Map.of("seconds", 1.0), 0, Map.of(), "r", "t", "c"));
    Files.writeString(tmp.resolve("x.jsonl"), "{not json\n", StandardOpenOption.APPEND);
    IOException e = assertThrows(IOException.class, store::readAll);
    assertTrue(e.getMessage().startsWith(tmp.resolve("x.jsonl") + ":2:"), e.getMessage());
  }

  @Test
  void gitRevisionOfThisRepository() {
    String rev = GitRevision.of(RepoLayout.repoRoot(Path.of("")));
    assertTrue(rev.matches("[0-9a-f]{40}(-dirty)?") || rev.equals("unknown"), rev);
    assertTrue(
        Files.isRegularFile(RepoLayout.repoRoot(Path.of("")).resolve("bench/pom.xml")),
        "tests run inside the repository");
  }
}
