package dev.levee.bench.hadoop.median.logs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.hadoop.mapreduce.TaskAttemptID;

/**
 * The container logs a mini cluster's NodeManagers keep on local disk ({@code <yarn dir>/.../<log
 * dir>/<application>/ <container>/}); the cluster keeps them after each job (its NodeManagers
 * delete with a debug delay), so a finished attempt's log can be read here.
 */
public final class ContainerLogs {
  /** Where stock's container log4j setup sends the shuffle and merge loggers. */
  public static final String SHUFFLE_LOG = "syslog.shuffle";

  private static final String SYSLOG = "syslog";

  private final Path root;

  public ContainerLogs(Path root) {
    this.root = root;
  }

  /**
   * The {@value #SHUFFLE_LOG} of the container that ran {@code attempt}: the one under the
   * attempt's application that names the attempt (the reduce's fetchers log it).
   */
  public Optional<Path> shuffleLog(TaskAttemptID attempt) throws IOException {
    return find(attempt, SHUFFLE_LOG);
  }

  /** Parses the merge passes of {@code attempt}'s reduce, if its log is there. */
  public Optional<MergePasses> mergePasses(TaskAttemptID attempt) throws IOException {
    Optional<Path> log = shuffleLog(attempt);
    if (log.isEmpty()) {
      return Optional.empty();
    }
    List<String> lines = Files.readAllLines(log.get(), StandardCharsets.ISO_8859_1);
    return Optional.of(MergePasses.parse(lines));
  }

  /**
   * Every log line of the containers whose {@code syslog} names {@code attempt} (each {@code
   * syslog} and, where stock's log setup splits them off, its {@value #SHUFFLE_LOG}); empty when
   * none does. That is the attempt's own container and the application master's, which logs every
   * attempt's transitions: callers pick lines only the task writes.
   */
  public List<String> attemptLines(TaskAttemptID attempt) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Path syslog : findAll(attempt, SYSLOG)) {
      lines.addAll(Files.readAllLines(syslog, StandardCharsets.ISO_8859_1));
      Path shuffle = syslog.resolveSibling(SHUFFLE_LOG);
      if (Files.exists(shuffle)) {
        lines.addAll(Files.readAllLines(shuffle, StandardCharsets.ISO_8859_1));
      }
    }
    return lines;
  }

  /**
   * The log file called {@code fileName} of the container, under the attempt's application, that
   * names it.
   */
  private Optional<Path> find(TaskAttemptID attempt, String fileName) throws IOException {
    return findAll(attempt, fileName).stream().findFirst();
  }

  /**
   * Every log file called {@code fileName} under the attempt's application that names the attempt.
   */
  private List<Path> findAll(TaskAttemptID attempt, String fileName) throws IOException {
    String application =
        "application_"
            + attempt.getJobID().getJtIdentifier()
            + "_"
            + String.format("%04d", attempt.getJobID().getId());
    String name = attempt.toString();
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(p -> p.getFileName().toString().equals(fileName))
          .filter(p -> p.toString().contains("/" + application + "/"))
          .filter(p -> mentions(p, name))
          .sorted()
          .toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private static boolean mentions(Path file, String text) {
    try (Stream<String> lines = Files.lines(file, StandardCharsets.ISO_8859_1)) {
      return lines.anyMatch(l -> l.contains(text));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
