package dev.levee.bench.hadoop.themis;

import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.gen.Datasets;
import dev.levee.bench.progress.ProgressReporter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.KeyValueTextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * The paper's Sort, scaled: 100-byte TeraSort records (bench-core's {@code terasort} generator),
 * 10-byte key and 90-byte value, through an identity map and reduce, hash-partitioned, so each
 * output part is its partition in key order. Every variant runs this same job on the same input.
 */
final class SortWorkload {
  static final String NAME = "sort";

  private SortWorkload() {}

  /** Writes {@code records} TeraSort records as {@code files} parts under {@code dir}. */
  static DatasetWriter.Result generate(
      Configuration conf, Path dir, long records, int files, long seed, ProgressReporter progress)
      throws IOException, InterruptedException {
    FileSystem fs = dir.getFileSystem(conf);
    return new DatasetWriter(conf)
        .write(
            "terasort",
            seed,
            Datasets.builtIn().configure("terasort", seed, Map.of()),
            Map.of(),
            new DatasetWriter.Plan(fs.makeQualified(dir).toString(), records, files, 2, true),
            progress);
  }

  static Job job(Configuration conf, Path in, Path out, int reducers) throws IOException {
    Job job = Job.getInstance(conf, "themis-bench-sort");
    job.setJarByClass(SortWorkload.class);
    job.setInputFormatClass(KeyValueTextInputFormat.class);
    job.setMapperClass(Mapper.class);
    job.setReducerClass(Reducer.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    job.setNumReduceTasks(reducers);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  /**
   * What a sorted output is: per part, its record count and an order-independent checksum of its
   * lines; and whether every part is in key order. Two runs of the same sort on the same input must
   * give equal digests part by part.
   */
  record Digest(long records, List<String> parts, boolean sorted, String firstUnsorted) {
    boolean sameAs(Digest other) {
      return records == other.records && parts.equals(other.parts);
    }
  }

  static Digest digest(FileSystem fs, Path dir) throws IOException {
    FileStatus[] files = fs.listStatus(dir, p -> p.getName().startsWith("part-"));
    Arrays.sort(files);
    long total = 0;
    List<String> parts = new ArrayList<>();
    String unsorted = null;
    for (FileStatus f : files) {
      long count = 0;
      long sum = 0;
      String previousKey = null;
      CRC32 crc = new CRC32();
      try (BufferedReader in =
          new BufferedReader(
              new InputStreamReader(fs.open(f.getPath()), StandardCharsets.ISO_8859_1), 1 << 20)) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          int tab = line.indexOf('\t');
          String key = tab < 0 ? line : line.substring(0, tab);
          // Text keys compare by bytes; these keys are printable ASCII, so String order is the
          // same.
          if (previousKey != null && key.compareTo(previousKey) < 0 && unsorted == null) {
            unsorted = f.getPath().getName() + ": " + previousKey + " before " + key;
          }
          previousKey = key;
          crc.reset();
          crc.update(line.getBytes(StandardCharsets.ISO_8859_1));
          sum += crc.getValue();
          count++;
        }
      }
      total += count;
      parts.add(f.getPath().getName() + ":" + count + ":" + Long.toHexString(sum));
    }
    return new Digest(total, parts, unsorted == null, unsorted);
  }
}
