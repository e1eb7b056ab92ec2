package dev.levee.bench.hadoop.themis;

import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.gen.TeraSortDataset;
import dev.levee.bench.progress.ProgressReporter;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.KeyValueTextInputFormat;

/**
 * The paper's Sort, scaled: "key TAB value" lines through an identity map and reduce,
 * hash-partitioned, so each output part is its partition in key order. Two inputs: 100-byte
 * TeraSort records (bench-core's {@code terasort}), and the paper's Pareto-sized records (its
 * Pareto-1M: bench-core's {@code pareto}, values Pareto(1.5, 100) bytes up to 1 MB).
 */
final class SortWorkload extends DatasetWorkload {
  static final String NAME = "sort";

  private final boolean tera;

  private SortWorkload(
      String name,
      String dataset,
      Map<String, String> options,
      long defaultRecords,
      double sortBufferBytesPerInputByte) {
    super(name, dataset, options, 11, defaultRecords, sortBufferBytesPerInputByte);
    this.tera = dataset.equals("terasort");
  }

  static SortWorkload teraSort() {
    // Per 100-byte line: the framed record (two vint lengths, the key and value without TAB and
    // newline: 6 bytes more than 98) and 16 bytes of sort-buffer metadata.
    return new SortWorkload(
        NAME, "terasort", Map.of(), 3_200_000, (TeraSortDataset.RECORD_BYTES + 6 + 16) / 100.0);
  }

  static SortWorkload paretoSized() {
    // Keys from a space 10x the records, so nearly all are distinct, as in a sort; mean line
    // about 307 bytes, and a few records near the 1 MB cap.
    return new SortWorkload(
        "pareto",
        "pareto",
        Map.of("keys", "10000000", "value-size", "pareto:1.5,100,1000000"),
        1_000_000,
        (307 + 22) / 307.0);
  }

  @Override
  public String description(long records) {
    return tera
        ? String.format(Locale.ROOT, "Sort of %,d 100-byte records", records)
        : String.format(
            Locale.ROOT,
            "Sort of %,d records with Pareto(1.5, 100 B) value sizes up to 1 MB",
            records);
  }

  @Override
  public long expectedOutputRecords(long inputRecords) {
    return inputRecords;
  }

  @Override
  public Job createJob(Configuration conf, Path in, Path out, int reducers) throws IOException {
    Job job = job(conf, in, out, reducers);
    job.setJobName("themis-bench-" + name());
    return job;
  }

  /** Writes {@code records} TeraSort records as {@code files} parts under {@code dir}. */
  static DatasetWriter.Result generate(
      Configuration conf, Path dir, long records, int files, long seed, ProgressReporter progress)
      throws IOException, InterruptedException {
    return ThemisWorkload.write(conf, "terasort", Map.of(), seed, dir, records, files, progress);
  }

  static Job job(Configuration conf, Path in, Path out, int reducers) throws IOException {
    Job job =
        textOutputJob(
            conf,
            "themis-bench-sort",
            SortWorkload.class,
            KeyValueTextInputFormat.class,
            in,
            out,
            reducers);
    job.setMapperClass(Mapper.class);
    job.setReducerClass(Reducer.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    return job;
  }
}
