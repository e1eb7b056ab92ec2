package dev.levee.containers.jobs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.NLineInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * What the client container submits: a shuffle-heavy job with Zipf-skewed keys and one reducer.
 * Each map generates its records from a seed (its input line), so the input is a few bytes while
 * the shuffle is as large as asked; the reducer writes per key the record count and an
 * order-independent digest of the values, so two runs agree exactly when the reducer saw the same
 * records.
 *
 * <p>{@code SkewedShuffle [-D k=v ...] <output> <maps> <records-per-map> <value-bytes>} runs it and
 * prints, for the test that drives the client, one {@code COUNTER\tgroup\tname\tvalue} line per
 * counter and {@code OUTPUT\tlines\tsha256} over the sorted output; exit status 0 when the job
 * succeeded.
 */
public final class SkewedShuffle extends Configured implements Tool {
  static final String RECORDS_PER_MAP = "levee.containers.records-per-map";
  static final String VALUE_BYTES = "levee.containers.value-bytes";
  static final int KEYS = 5_000;
  static final double ZIPF_EXPONENT = 1.1;

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new SkewedShuffle(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: SkewedShuffle <output> <maps> <records-per-map> <value-bytes>");
      return 2;
    }
    Path output = new Path(args[0]);
    int maps = Integer.parseInt(args[1]);
    Configuration conf = getConf();
    conf.setLong(RECORDS_PER_MAP, Long.parseLong(args[2]));
    conf.setInt(VALUE_BYTES, Integer.parseInt(args[3]));
    FileSystem fs = output.getFileSystem(conf);
    Path input = new Path(output.getParent(), output.getName() + "-seeds");
    fs.delete(output, true);
    try (FSDataOutputStream out = fs.create(new Path(input, "seeds.txt"), true)) {
      for (int m = 0; m < maps; m++) {
        out.writeBytes((1_000 + m) + "\n");
      }
    }
    Job job = Job.getInstance(conf, conf.get("mapreduce.job.name", "skewed-shuffle"));
    job.setJarByClass(SkewedShuffle.class);
    job.setInputFormatClass(NLineInputFormat.class);
    NLineInputFormat.setNumLinesPerSplit(job, 1);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    job.setMapperClass(Generate.class);
    job.setReducerClass(Digest.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(BytesWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setNumReduceTasks(1);
    boolean ok = job.waitForCompletion(true);
    for (CounterGroup group : job.getCounters()) {
      for (Counter c : group) {
        System.out.println(
            "COUNTER\t" + group.getName() + "\t" + c.getName() + "\t" + c.getValue());
      }
    }
    if (ok) {
      System.out.println(JobOutput.digest(fs, output));
    }
    return ok ? 0 : 1;
  }

  /** {@code records-per-map} records with Zipf-distributed keys and random values. */
  public static final class Generate extends Mapper<LongWritable, Text, Text, BytesWritable> {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      long records = conf.getLong(RECORDS_PER_MAP, 0);
      byte[] value = new byte[conf.getInt(VALUE_BYTES, 100)];
      Random random = new Random(Long.parseLong(line.toString().trim()));
      double[] cdf = zipfCdf(KEYS, ZIPF_EXPONENT);
      Text key = new Text();
      BytesWritable out = new BytesWritable();
      for (long r = 0; r < records; r++) {
        int k = Arrays.binarySearch(cdf, random.nextDouble());
        key.set(String.format("key-%05d", k < 0 ? -k - 1 : k));
        random.nextBytes(value);
        out.set(value, 0, value.length);
        context.write(key, out);
      }
    }
  }

  /** {@code key -> count <tab> sum of the values' CRC32s}, whatever order the merge delivers. */
  public static final class Digest extends Reducer<Text, BytesWritable, Text, Text> {
    @Override
    protected void reduce(Text key, Iterable<BytesWritable> values, Context context)
        throws IOException, InterruptedException {
      long count = 0;
      long digest = 0;
      CRC32 crc = new CRC32();
      for (BytesWritable v : values) {
        crc.reset();
        crc.update(v.getBytes(), 0, v.getLength());
        digest += crc.getValue();
        count++;
      }
      context.write(key, new Text(count + "\t" + Long.toHexString(digest)));
    }
  }

  static double[] zipfCdf(int n, double s) {
    double[] cdf = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += 1.0 / Math.pow(i + 1, s);
      cdf[i] = sum;
    }
    for (int i = 0; i < n; i++) {
      cdf[i] /= sum;
    }
    return cdf;
  }

  /** The job's output as one comparable line: its line count and a hash of its sorted lines. */
  static final class JobOutput {
    private JobOutput() {}

    static String digest(FileSystem fs, Path dir) throws IOException {
      List<String> lines = new ArrayList<>();
      for (FileStatus part : fs.listStatus(dir, p -> p.getName().startsWith("part-"))) {
        try (var in = fs.open(part.getPath())) {
          String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          for (String l : text.split("\n")) {
            if (!l.isEmpty()) {
              lines.add(l);
            }
          }
        }
      }
      lines.sort(null);
      try {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (String l : lines) {
          sha.update(l.getBytes(StandardCharsets.UTF_8));
          sha.update((byte) '\n');
        }
        StringBuilder hex = new StringBuilder();
        for (byte b : sha.digest()) {
          hex.append(String.format("%02x", b));
        }
        return "OUTPUT\t" + lines.size() + "\t" + hex;
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
