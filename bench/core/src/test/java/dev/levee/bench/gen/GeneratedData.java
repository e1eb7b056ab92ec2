package dev.levee.bench.gen;

import dev.levee.bench.progress.ProgressReporter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/** Test helper: runs a dataset through the real {@link DatasetWriter} on the local file system. */
final class GeneratedData {
  private GeneratedData() {}

  static DatasetWriter.Result generate(
      String dataset,
      Path dir,
      long records,
      long seed,
      int files,
      int threads,
      String... datasetArgs)
      throws IOException, InterruptedException {
    RecordGenerator g = Datasets.builtIn().configure(dataset, seed, Arrays.asList(datasetArgs));
    ProgressReporter quiet =
        new ProgressReporter(
            "test",
            records,
            "records",
            new PrintStream(new ByteArrayOutputStream()),
            1000,
            System::nanoTime);
    return new DatasetWriter(new Configuration())
        .write(
            dataset,
            seed,
            g,
            Map.of(),
            new DatasetWriter.Plan(dir.toUri().toString(), records, files, threads, true),
            quiet);
  }

  /** The part files concatenated in name order. */
  static byte[] concatenatedParts(Path dir) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    try (var s = Files.list(dir)) {
      for (Path p :
          s.filter(f -> f.getFileName().toString().startsWith("part-")).sorted().toList()) {
        all.write(Files.readAllBytes(p));
      }
    }
    return all.toByteArray();
  }

  static List<String> lines(Path dir) throws IOException {
    String text = new String(concatenatedParts(dir), StandardCharsets.US_ASCII);
    return text.isEmpty()
        ? List.of()
        : Arrays.asList(text.split("\n", -1)).subList(0, text.split("\n", -1).length - 1);
  }
}
