package dev.levee.sponge.hadoop;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.Mapper;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.lib.IdentityReducer;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * Jobs whose values vary in length from a byte to several KiB, so that a value read into the wrong
 * buffer overwrites unread bytes of another run (a fixed-width value would overwrite only what was
 * already consumed, and hide such a bug). Map {@code i} writes about {@code 300 * (i + 1)} records,
 * so map outputs differ in size and some exceed the single-shuffle limit.
 */
final class VariableRecordJobs {
  static final int MAPS = 10;

  /** What the reducer does with each group. */
  enum ReducerKind {
    /** Emits every record as it arrives: the output is the reduce input, record for record. */
    IDENTITY,
    /** Holds a key's whole group and emits it sorted: a reducer that buffers its input. */
    BUFFERING
  }

  private VariableRecordJobs() {}

  static void writeInput(Path dir) throws IOException {
    Files.createDirectories(dir);
    Random random = new Random(7);
    for (int i = 0; i < MAPS; i++) {
      try (Writer w =
          Files.newBufferedWriter(
              dir.resolve(String.format("part-%02d.txt", i)), StandardCharsets.UTF_8)) {
        int records = 300 * (i + 1);
        for (int r = 0; r < records; r++) {
          int length =
              random.nextInt(8) == 0 ? 2000 + random.nextInt(4000) : 1 + random.nextInt(60);
          StringBuilder v = new StringBuilder(length);
          char c = (char) ('a' + random.nextInt(26));
          for (int k = 0; k < length; k++) {
            v.append(c);
          }
          w.write("key-" + random.nextInt(900) + "\t" + i + ":" + r + ":" + v + "\n");
        }
      }
    }
  }

  /** A job with a 2 MiB reduce-side shuffle budget; callers override the settings under test. */
  static JobConf job(Path work, Path input, Path output, ReducerKind reducer) {
    JobConf job = new JobConf();
    job.set(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
    job.set("fs.defaultFS", "file:///");
    job.set("hadoop.tmp.dir", work.resolve("hadoop-tmp").toString());
    job.set(MRConfig.LOCAL_DIR, work.resolve("local").toString());
    job.setJobName("variable-records-" + output.getFileName());
    job.setNumReduceTasks(1);
    job.setLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, 2L << 20);
    job.setMapperClass(SplitMapper.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setReducerClass(
        reducer == ReducerKind.IDENTITY ? IdentityReducer.class : SortedGroupReducer.class);
    FileInputFormat.setInputPaths(job, new org.apache.hadoop.fs.Path(input.toUri()));
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(output.toUri()));
    return job;
  }

  /** The output's lines in file order. */
  static List<String> lines(Path dir) throws IOException {
    List<String> all = new ArrayList<>();
    try (Stream<Path> parts = Files.list(dir)) {
      for (Path p :
          parts.filter(f -> f.getFileName().toString().startsWith("part-")).sorted().toList()) {
        all.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
      }
    }
    return all;
  }

  /** {@code key \t value} lines to (key, value), both Text. */
  public static final class SplitMapper extends MapReduceBase
      implements Mapper<LongWritable, Text, Text, Text> {
    private final Text key = new Text();
    private final Text value = new Text();

    @Override
    public void map(LongWritable offset, Text line, OutputCollector<Text, Text> out, Reporter r)
        throws IOException {
      String s = line.toString();
      int tab = s.indexOf('\t');
      key.set(s.substring(0, tab));
      value.set(s.substring(tab + 1));
      out.collect(key, value);
    }
  }

  /** Holds each group and emits it sorted, so the output does not depend on arrival order. */
  public static final class SortedGroupReducer extends MapReduceBase
      implements Reducer<Text, Text, Text, Text> {
    @Override
    public void reduce(Text key, Iterator<Text> values, OutputCollector<Text, Text> out, Reporter r)
        throws IOException {
      List<String> group = new ArrayList<>();
      while (values.hasNext()) {
        group.add(values.next().toString());
      }
      Collections.sort(group);
      out.collect(key, new Text(group.size() + "|" + String.join(",", group)));
    }
  }
}
