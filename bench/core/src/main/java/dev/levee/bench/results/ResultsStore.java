package dev.levee.bench.results;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The results directory: one JSON-lines file per suite, appended to and never rewritten, so
 * repeated runs accumulate and the report can take medians over them.
 */
public final class ResultsStore {
  private static final Pattern SUITE_NAME = Pattern.compile("[a-z0-9][a-z0-9._-]*");
  private final Path dir;
  private int appended;
  private final ObjectMapper mapper =
      new ObjectMapper()
          .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  public ResultsStore(Path dir) {
    this.dir = dir;
  }

  public Path dir() {
    return dir;
  }

  public Path fileFor(String suite) {
    if (!SUITE_NAME.matcher(suite).matches()) {
      throw new IllegalArgumentException(
          "suite names are lower-case letters, digits, '.', '_' and '-': " + suite);
    }
    return dir.resolve(suite + ".jsonl");
  }

  /**
   * Appends one line; a single write call per line keeps concurrent appenders from interleaving
   * within a line.
   */
  public synchronized void append(Measurement m) {
    try {
      Files.createDirectories(dir);
      byte[] line = (mapper.writeValueAsString(m) + "\n").getBytes(StandardCharsets.UTF_8);
      Files.write(
          fileFor(m.suite()),
          line,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND,
          StandardOpenOption.WRITE);
      appended++;
    } catch (IOException e) {
      throw new UncheckedIOException("could not append to " + fileFor(m.suite()), e);
    }
  }

  /** Lines this store appended since it was made. */
  public synchronized int appended() {
    return appended;
  }

  /**
   * Every measurement of every suite, in file order; a malformed line fails with its file and line
   * number.
   */
  public List<Measurement> readAll() throws IOException {
    List<Measurement> all = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return all;
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList();
    }
    for (Path f : files) {
      all.addAll(read(f));
    }
    return all;
  }

  public List<Measurement> read(Path file) throws IOException {
    List<Measurement> out = new ArrayList<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).trim();
      if (line.isEmpty()) {
        continue;
      }
      try {
        out.add(mapper.readValue(line, Measurement.class));
      } catch (IOException e) {
        throw new IOException(
            file + ":" + (i + 1) + ": not a measurement line: " + e.getMessage(), e);
      }
    }
    return out;
  }
}
