package dev.levee.bench.hadoop.median;

import dev.levee.bench.SuiteContext;
import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.progress.ProgressReporter;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The Median job's input: uniform 10-digit numbers, one per line, in a given number of files (one
 * map each).
 */
public final class NumbersInput {
  /**
   * Bytes one number takes in the reducer's input: an 8-byte LongWritable key plus two 1-byte IFile
   * lengths.
   */
  public static final int SHUFFLE_BYTES_PER_NUMBER = 10;

  private static final long SEED = 42;

  private NumbersInput() {}

  /** Writes {@code numbers} lines into {@code files} files under {@code dir} (replacing it). */
  public static void generate(
      Configuration conf, Path dir, long numbers, int files, SuiteContext context)
      throws Exception {
    try (ProgressReporter progress = context.progress("generate numbers", numbers, "records")) {
      generate(conf, dir, numbers, files, progress);
    }
  }

  /** The same, reporting to {@code progress} (a client outside the bench's suites). */
  public static void generate(
      Configuration conf, Path dir, long numbers, int files, ProgressReporter progress)
      throws Exception {
    // Uniform over 10^10: every number distinct in practice, so the reducer's sort really works.
    writeUniform(
        conf,
        dir,
        numbers,
        files,
        SEED,
        Map.of("keys", "10000000000", "value-size", "fixed:0"),
        progress);
  }

  /**
   * Writes {@code records} lines of the bench's {@code uniform} data set with {@code seed} and
   * {@code options} into {@code files} files under {@code dir} (replacing it).
   */
  public static void writeUniform(
      Configuration conf,
      Path dir,
      long records,
      int files,
      long seed,
      Map<String, String> options,
      ProgressReporter progress)
      throws Exception {
    DatasetWriter.Plan plan =
        new DatasetWriter.Plan(conf.get("fs.defaultFS") + dir, records, files, 2, true);
    new DatasetWriter(conf).writeBuiltIn("uniform", seed, options, plan, progress);
  }

  /**
   * The reducer's input for {@code numbers} numbers, as the shuffle counts it (IFile framing
   * aside).
   */
  public static long shuffleBytes(long numbers) {
    return numbers * SHUFFLE_BYTES_PER_NUMBER;
  }
}
