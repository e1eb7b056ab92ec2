package dev.levee.bench.gen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.levee.bench.cli.BadArgumentException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DatasetWriterTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(
      strings = {"zipf", "uniform", "pareto", "terasort", "web", "text", "graph", "clicks"})
  void sameSeedSameBytesWhateverTheSplit(String dataset) throws Exception {
    GeneratedData.generate(dataset, tmp.resolve("a"), 5_000, 17, 1, 1);
    GeneratedData.generate(dataset, tmp.resolve("b"), 5_000, 17, 4, 3);
    GeneratedData.generate(dataset, tmp.resolve("c"), 5_000, 18, 1, 1);
    byte[] a = GeneratedData.concatenatedParts(tmp.resolve("a"));
    byte[] b = GeneratedData.concatenatedParts(tmp.resolve("b"));
    byte[] c = GeneratedData.concatenatedParts(tmp.resolve("c"));
    assertTrue(a.length > 0);
    assertArrayEquals(a, b, "1 file, 1 thread vs 4 files, 3 threads");
    assertFalse(Arrays.equals(a, c), "another seed gives other data");
    assertEquals(5_000, GeneratedData.lines(tmp.resolve("a")).size());
  }

  @Test
  void splitsRecordsEvenlyOverPartFilesAndWritesAManifest() throws Exception {
    Path dir = tmp.resolve("t");
    DatasetWriter.Result r = GeneratedData.generate("terasort", dir, 1_001, 3, 4, 2);
    assertEquals(4, r.files().size());
    long[] sizes = new long[4];
    for (int i = 0; i < 4; i++) {
      sizes[i] = Files.size(dir.resolve(String.format("part-%05d", i)));
    }
    // 1001 records over 4 files: 250, 250, 250, 251 (file f holds [f*R/N, (f+1)*R/N)).
    assertArrayEquals(new long[] {25_000, 25_000, 25_000, 25_100}, sizes);
    assertEquals(100_100, r.bytes());
    JsonNode manifest = new ObjectMapper().readTree(dir.resolve(DatasetWriter.MANIFEST).toFile());
    assertEquals("terasort", manifest.get("dataset").asText());
    assertEquals(1_001, manifest.get("records").asLong());
    assertEquals(100_100, manifest.get("bytes").asLong());
    assertEquals(
        List.of("key", "value"),
        List.of(manifest.get("columns").get(0).asText(), manifest.get("columns").get(1).asText()));
    try (var files = Files.list(dir)) {
      assertTrue(
          files.noneMatch(f -> f.getFileName().toString().endsWith(".crc")),
          "no checksum side files");
    }
  }

  @Test
  void refusesToOverwriteUnlessAsked() throws Exception {
    Path dir = tmp.resolve("x");
    Files.createDirectories(dir);
    RecordGenerator g = Datasets.builtIn().configure("terasort", 1, List.of());
    var progress =
        new dev.levee.bench.progress.ProgressReporter(
            "t",
            1,
            "r",
            new java.io.PrintStream(java.io.OutputStream.nullOutputStream()),
            1000,
            System::nanoTime);
    BadArgumentException e =
        assertThrows(
            BadArgumentException.class,
            () ->
                new DatasetWriter(new org.apache.hadoop.conf.Configuration())
                    .write(
                        "terasort",
                        1,
                        g,
                        java.util.Map.of(),
                        new DatasetWriter.Plan(dir.toUri().toString(), 10, 1, 1, false),
                        progress));
    assertTrue(
        e.getMessage().contains("--out") && e.getMessage().contains("--overwrite"), e.getMessage());
  }
}
