package dev.levee.it.sponge;

import java.io.IOException;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.NLineInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * A shuffle-heavy job with Zipf-distributed keys and one reducer, so the reducer receives every
 * map's output. Each map generates its records from a seed (its input line), so the input on HDFS
 * is a few bytes while the shuffle is as large as asked. The reducer writes, per key, the record
 * count and an order-independent digest of the values: the output is small and equal between runs
 * exactly when the reducer saw the same multiset of records.
 *
 * <p>Public, and in this module's test jar, for integration-tests/containers, which submits it on a
 * cluster of containers.
 */
public final class SkewedShuffleJob {
  static final String RECORDS_PER_MAP = "levee.it.sponge.records-per-map";
  static final String VALUE_BYTES = "levee.it.sponge.value-bytes";

  /** The first this many maps (by seed) emit {@link #HEAVY_RECORDS_PER_MAP} records instead. */
  static final String HEAVY_MAPS = "levee.it.sponge.heavy-maps";

  static final String HEAVY_RECORDS_PER_MAP = "levee.it.sponge.heavy-records-per-map";

  /** Reduce attempts numbered below this fail on purpose once they have read their whole input. */
  static final String FAILING_ATTEMPTS = "levee.it.sponge.failing-reduce-attempts";

  /**
   * An HDFS directory: when set, a reducer's first attempt, its shuffle done and its merge's
   * segments in place, creates {@code ready-<host>} there and waits for {@code release} before
   * reducing, so a test can take a node away while the attempt's spilled input sits on it.
   */
  public static final String REDUCE_HOLD_DIR = "levee.it.sponge.reduce-hold-dir";

  /** How long a held reducer waits for its release before failing. */
  static final long HOLD_LIMIT_MS = 600_000;

  /** The message of a deliberate reduce failure. */
  static final String DELIBERATE_FAILURE = "deliberate failure after the whole reduce input";

  static final long FIRST_SEED = 1_000;
  static final int KEYS = 5_000;
  static final String CLASSPATH_GROUP = "levee.it.classpath";

  /**
   * 1 when the reducer loaded the shuffle plugin from a jar YARN localized for the job (-libjars).
   */
  static final String PLUGIN_LOCALIZED = "plugin.localized";

  /**
   * 1 when the reducer loaded this job's classes from a jar YARN localized for the job (the job
   * jar).
   */
  static final String JOB_LOCALIZED = "job.localized";

  static final double ZIPF_EXPONENT = 1.1;

  private SkewedShuffleJob() {}

  /** One input line per map task: the map's seed. */
  public static void writeInput(FileSystem fs, Path input, int maps) throws IOException {
    try (FSDataOutputStream out = fs.create(new Path(input, "seeds.txt"), true)) {
      for (int m = 0; m < maps; m++) {
        out.writeBytes((FIRST_SEED + m) + "\n");
      }
    }
  }

  public static Job configure(Job job, Path input, Path output, long recordsPerMap, int valueBytes)
      throws IOException {
    job.setJobName(
        job.getJobName() == null || job.getJobName().isEmpty()
            ? "skewed-shuffle"
            : job.getJobName());
    job.setJarByClass(SkewedShuffleJob.class);
    job.getConfiguration().setLong(RECORDS_PER_MAP, recordsPerMap);
    job.getConfiguration().setInt(VALUE_BYTES, valueBytes);
    job.setInputFormatClass(NLineInputFormat.class);
    NLineInputFormat.setNumLinesPerSplit(job, 1);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    job.setMapperClass(GenerateMapper.class);
    job.setReducerClass(DigestReducer.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(BytesWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setNumReduceTasks(1);
    return job;
  }

  /**
   * Emits {@code records-per-map} records with Zipf-distributed keys and random values of a fixed
   * size.
   */
  public static final class GenerateMapper extends Mapper<LongWritable, Text, Text, BytesWritable> {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      long seed = Long.parseLong(line.toString().trim());
      long records =
          seed - FIRST_SEED < conf.getInt(HEAVY_MAPS, 0)
              ? conf.getLong(HEAVY_RECORDS_PER_MAP, 0)
              : conf.getLong(RECORDS_PER_MAP, 0);
      byte[] value = new byte[conf.getInt(VALUE_BYTES, 100)];
      Random random = new Random(seed);
      double[] cdf = zipfCdf(KEYS, ZIPF_EXPONENT);
      Text key = new Text();
      BytesWritable out = new BytesWritable();
      for (long r = 0; r < records; r++) {
        int k = Arrays.binarySearch(cdf, random.nextDouble());
        key.set(String.format("key-%05d", k < 0 ? -k - 1 : k));
        random.nextBytes(value);
        out.set(value, 0, value.length);
        context.write(key, out);
        if ((r & 1023) == 0) {
          context.progress();
        }
      }
    }
  }

  /**
   * {@code key -> count <tab> sum of the values' CRC32s}: independent of the order the merge
   * delivers values in.
   */
  public static final class DigestReducer extends Reducer<Text, BytesWritable, Text, Text> {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      // Where the task loaded its classes from, so a test can tell -libjars/job jar from an
      // inherited classpath.
      count(
          context,
          PLUGIN_LOCALIZED,
          localizedForThisApplication(
              context
                  .getConfiguration()
                  .get("mapreduce.job.reduce.shuffle.consumer.plugin.class")));
      count(context, JOB_LOCALIZED, localizedForThisApplication(SkewedShuffleJob.class.getName()));
      String hold = context.getConfiguration().get(REDUCE_HOLD_DIR);
      if (hold != null && context.getTaskAttemptID().getId() == 0) {
        holdUntilReleased(context, new Path(hold));
      }
    }

    private static void holdUntilReleased(Context context, Path dir)
        throws IOException, InterruptedException {
      FileSystem fs = dir.getFileSystem(context.getConfiguration());
      String host = InetAddress.getLocalHost().getHostName();
      fs.create(new Path(dir, "ready-" + host), true).close();
      Path release = new Path(dir, "release");
      long deadline = System.currentTimeMillis() + HOLD_LIMIT_MS;
      while (!fs.exists(release)) {
        if (System.currentTimeMillis() > deadline) {
          throw new IOException("held reducer: no " + release + " within " + HOLD_LIMIT_MS + " ms");
        }
        context.progress();
        Thread.sleep(200);
      }
    }

    private static void count(Context context, String name, boolean yes) {
      context.getCounter(CLASSPATH_GROUP, name).increment(yes ? 1 : 0);
    }

    /**
     * Whether the class came from a file YARN localized for this job: under the user cache above
     * one of the container's application dirs ({@code LOCAL_DIRS}). The JVM reports canonical
     * paths, so the container's links to localized files show up as their targets in those caches.
     */
    private static boolean localizedForThisApplication(String className) throws IOException {
      String localDirs = System.getenv("LOCAL_DIRS");
      if (className == null || localDirs == null) {
        return false;
      }
      java.security.CodeSource source;
      try {
        source = Class.forName(className).getProtectionDomain().getCodeSource();
      } catch (ClassNotFoundException e) {
        return false;
      }
      if (source == null) {
        return false;
      }
      java.nio.file.Path location;
      try {
        location = java.nio.file.Path.of(source.getLocation().toURI()).toRealPath();
      } catch (java.net.URISyntaxException e) {
        return false;
      }
      for (String dir : localDirs.split(",")) {
        // <nm-local-dir>/usercache/<user>/appcache/<app>: -libjars land in the user's file cache,
        // the job jar in
        // the application's; both sit under usercache/<user>.
        java.nio.file.Path userCache =
            java.nio.file.Path.of(dir).toRealPath().getParent().getParent();
        if (location.startsWith(userCache)) {
          return true;
        }
      }
      return false;
    }

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

  /**
   * {@link DigestReducer}, except that attempts numbered below {@link #FAILING_ATTEMPTS} throw once
   * the merge has delivered every record: each such attempt shuffles and merges the whole input,
   * and the next one fetches every map output again, all of them ready at once.
   */
  public static final class FailingDigestReducer extends Reducer<Text, BytesWritable, Text, Text> {
    private final DigestReducer digest = new DigestReducer();

    @Override
    public void run(Context context) throws IOException, InterruptedException {
      while (context.nextKey()) {
        digest.reduce(context.getCurrentKey(), context.getValues(), context);
      }
      int attempt = context.getTaskAttemptID().getId();
      if (attempt < context.getConfiguration().getInt(FAILING_ATTEMPTS, 0)) {
        throw new IOException(DELIBERATE_FAILURE + " (attempt " + attempt + ")");
      }
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
}
