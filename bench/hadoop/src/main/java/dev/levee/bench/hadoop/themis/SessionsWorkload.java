package dev.levee.bench.hadoop.themis;

import dev.levee.themis.examples.ClickSessions;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;

/**
 * The paper's Click-Sessions ({@link ClickSessions}, in themis-shuffle's examples) over
 * bench-core's {@code clicks}.
 */
final class SessionsWorkload extends DatasetWorkload {
  private SessionsWorkload(long defaultRecords) {
    // The key grows by the zero padding of the timestamp; 16 bytes of metadata per ~70-byte click.
    super("sessions", "clicks", Map.of(), 19, defaultRecords, 1.35);
  }

  static SessionsWorkload clickLog() {
    return new SessionsWorkload(4_000_000);
  }

  @Override
  public String description(long records) {
    return String.format(
        Locale.ROOT,
        "Click-Sessions over %,d clicks (100,000 Zipf(1) users, one click per 10 ms)",
        records);
  }

  @Override
  public long expectedOutputRecords(long inputRecords) {
    return -1;
  }

  @Override
  public Job createJob(Configuration conf, Path in, Path out, int reducers) throws IOException {
    Job job =
        textOutputJob(
            conf,
            "themis-bench-sessions",
            SessionsWorkload.class,
            TextInputFormat.class,
            in,
            out,
            reducers);
    ClickSessions.configure(job);
    return job;
  }
}
