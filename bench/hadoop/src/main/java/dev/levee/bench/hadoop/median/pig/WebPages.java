package dev.levee.bench.hadoop.median.pig;

import dev.levee.bench.SuiteContext;
import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.progress.ProgressReporter;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The Pig jobs' input: the seeded {@code web} dataset of bench-core with the paper's 100 domains,
 * so the largest domain holds about a fifth of the pages and English half of them: the skewed
 * groups whose bags spill.
 */
public final class WebPages {
  /** The paper's dataset resembled complete samples of 100 domains. */
  public static final int DOMAINS = 100;

  /**
   * About the bytes of one page's line, as the Pig jobs' reducer receives it (the quantiles query
   * ships whole pages): what sizes the sponges when the Pig jobs run.
   */
  public static final long LINE_BYTES = 100;

  private static final long SEED = 2014;

  private WebPages() {}

  /** Writes {@code pages} lines into {@code files} files under {@code dir} (replacing it). */
  public static void generate(
      Configuration conf, Path dir, long pages, int files, SuiteContext context) throws Exception {
    Map<String, String> options = Map.of("domains", String.valueOf(DOMAINS));
    DatasetWriter.Plan plan =
        new DatasetWriter.Plan(conf.get("fs.defaultFS") + dir, pages, files, 2, true);
    try (ProgressReporter progress = context.progress("generate web pages", pages, "records")) {
      new DatasetWriter(conf).writeBuiltIn("web", SEED, options, plan, progress);
    }
  }

  /** The Pig schema of one line, in the generator's column order. */
  public static String schema() {
    return "(url:chararray, domain:chararray, language:chararray, spam_score:double,"
        + " inlinks:long, anchor_text:chararray)";
  }
}
