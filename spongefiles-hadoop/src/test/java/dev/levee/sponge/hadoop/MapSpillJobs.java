package dev.levee.sponge.hadoop;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Random;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.Mapper;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * Jobs whose maps outgrow a 1 MB sort buffer several times over, on the LocalJobRunner: three maps
 * of {@value #RECORDS_PER_MAP} records each (about 4 MB of buffer each, so 4 spills), two reducers,
 * and a sort factor of 2, so stock merges each map's spills in several rounds.
 */
final class MapSpillJobs {
  static final int MAPS = 3;
  static final int RECORDS_PER_MAP = 110_000;
  static final int REDUCES = 2;
  static final int SORT_FACTOR = 2;

  private MapSpillJobs() {}

  static void writeInput(Path dir) throws IOException {
    Files.createDirectories(dir);
    Random random = new Random(7);
    for (int i = 0; i < MAPS; i++) {
      try (Writer w =
          Files.newBufferedWriter(
              dir.resolve(String.format("part-%02d.txt", i)), StandardCharsets.UTF_8)) {
        for (int r = 0; r < RECORDS_PER_MAP; r++) {
          w.write("key-" + random.nextInt(20_000) + "\t" + random.nextInt(1_000_000) + "\n");
        }
      }
    }
  }

  /** A job over {@code input}: the sum per key with {@code combiner}, else every value sorted. */
  static JobConf job(Path work, Path input, Path output, boolean combiner) {
    JobConf job = ShuffleJobs.job(work, input, output, combiner);
    job.setJobName("sponge-map-spill-" + output.getFileName());
    job.setNumReduceTasks(REDUCES);
    job.setInt(MRJobConfig.IO_SORT_MB, 1);
    job.setInt(MRJobConfig.IO_SORT_FACTOR, SORT_FACTOR);
    // A generous reduce side: these jobs are about the maps.
    job.setLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, 64L << 20);
    return job;
  }

  /** A job whose map also emits, every 40,000th record, a value bigger than the sort buffer. */
  static JobConf oversizedJob(Path work, Path input, Path output) {
    JobConf job = job(work, input, output, false);
    job.setMapperClass(OversizedValueMapper.class);
    job.setMapOutputValueClass(Text.class);
    job.setReducerClass(LengthsReducer.class);
    job.setOutputValueClass(Text.class);
    return job;
  }

  /** Every part file of {@code dir}, in order. */
  static byte[] output(Path dir) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (int r = 0; r < REDUCES; r++) {
      all.write(Files.readAllBytes(dir.resolve(String.format("part-%05d", r))));
    }
    return all.toByteArray();
  }

  /** {@code key \t value} lines to (key, value as text), plus a 1.5 MB value now and then. */
  public static final class OversizedValueMapper extends MapReduceBase
      implements Mapper<LongWritable, Text, Text, Text> {
    private final Text key = new Text();
    private final Text value = new Text();
    private long seen;

    @Override
    public void map(LongWritable offset, Text line, OutputCollector<Text, Text> out, Reporter r)
        throws IOException {
      String s = line.toString();
      int tab = s.indexOf('\t');
      key.set(s.substring(0, tab));
      if (++seen % 40_000 == 0) {
        value.set("x".repeat(1_500_000) + s.substring(tab + 1));
      } else {
        value.set(s.substring(tab + 1));
      }
      out.collect(key, value);
    }
  }

  /** Per key: the number of values and their sorted lengths and hashes (order-independent). */
  public static final class LengthsReducer extends MapReduceBase
      implements Reducer<Text, Text, Text, Text> {
    @Override
    public void reduce(Text key, Iterator<Text> values, OutputCollector<Text, Text> out, Reporter r)
        throws IOException {
      java.util.List<String> all = new java.util.ArrayList<>();
      while (values.hasNext()) {
        Text v = values.next();
        all.add(v.getLength() + ":" + v.toString().hashCode());
      }
      java.util.Collections.sort(all);
      out.collect(key, new Text(String.join(",", all)));
    }
  }

  /** Text keys in descending byte order, compared raw. */
  public static final class ReverseTextComparator extends org.apache.hadoop.io.WritableComparator {
    public ReverseTextComparator() {
      super(Text.class);
    }

    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      return -compareBytes(b1, s1, l1, b2, s2, l2);
    }
  }
}
