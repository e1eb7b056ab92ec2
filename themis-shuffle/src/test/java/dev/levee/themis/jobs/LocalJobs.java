package dev.levee.themis.jobs;

import dev.levee.themis.ThemisCounters;
import dev.levee.themis.map.ThemisMapOutputCollector;
import dev.levee.themis.reduce.ThemisShuffle;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/** Jobs on Hadoop's LocalJobRunner, real map and reduce tasks in this JVM, files under target/. */
public final class LocalJobs {
  private LocalJobs() {}

  static {
    // Quiet Hadoop, keep Levee's own lines (tests assert on some of them).
    if (!org.apache.log4j.Logger.getRootLogger().getAllAppenders().hasMoreElements()) {
      org.apache.log4j.BasicConfigurator.configure();
    }
    org.apache.log4j.Logger.getRootLogger().setLevel(org.apache.log4j.Level.WARN);
    org.apache.log4j.Logger.getLogger("dev.levee").setLevel(org.apache.log4j.Level.INFO);
  }

  public static Configuration local(Path work) {
    Configuration conf = new Configuration();
    conf.set(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
    conf.set("fs.defaultFS", "file:///");
    conf.set("hadoop.tmp.dir", work.resolve("tmp").toString());
    conf.set(MRConfig.LOCAL_DIR, work.resolve("local").toString());
    conf.set("mapreduce.jobtracker.staging.root.dir", work.resolve("staging").toString());
    conf.setInt("mapreduce.local.map.tasks.maximum", 2);
    conf.setInt("mapreduce.local.reduce.tasks.maximum", 2);
    // Stock polls every 5 s, which would be most of each job's time here.
    conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 50);
    conf.setInt(Job.PROGRESS_MONITOR_POLL_INTERVAL_KEY, 50);
    return conf;
  }

  /** Both Themis keys, as a user sets them. */
  public static Configuration themis(Configuration conf) {
    Configuration c = new Configuration(conf);
    c.set(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, ThemisMapOutputCollector.class.getName());
    c.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, ThemisShuffle.class.getName());
    return c;
  }

  /** {@code files} text files of {@code lines} lines of Zipf-ish words each. */
  public static Path writeText(Path dir, int files, int lines, long seed) throws IOException {
    Files.createDirectories(dir);
    Random random = new Random(seed);
    for (int f = 0; f < files; f++) {
      StringBuilder text = new StringBuilder();
      for (int l = 0; l < lines; l++) {
        int words = 1 + random.nextInt(12);
        for (int w = 0; w < words; w++) {
          text.append(w == 0 ? "" : " ")
              .append("w")
              .append((int) Math.floor(Math.pow(3_000, random.nextDouble())));
        }
        text.append('\n');
      }
      Files.writeString(dir.resolve("part-" + f + ".txt"), text);
    }
    return dir;
  }

  /** Lines "a b" of two ints with many repeats of a. */
  public static Path writePairs(Path dir, int files, int lines, long seed) throws IOException {
    Files.createDirectories(dir);
    Random random = new Random(seed);
    for (int f = 0; f < files; f++) {
      StringBuilder text = new StringBuilder();
      for (int l = 0; l < lines; l++) {
        text.append(random.nextInt(500) - 100)
            .append(' ')
            .append(random.nextInt(10_000))
            .append('\n');
      }
      Files.writeString(dir.resolve("pairs-" + f + ".txt"), text);
    }
    return dir;
  }

  public static Job job(Configuration conf, String name, Path in, Path out, int reducers)
      throws IOException {
    Job job = Job.getInstance(conf, name);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(in.toUri()));
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(out.toUri()));
    job.setNumReduceTasks(reducers);
    return job;
  }

  /** Runs to completion; true on success. */
  public static boolean run(Job job) throws Exception {
    return job.waitForCompletion(false);
  }

  /** Every part file's bytes, in part order, with its name. */
  public static String output(Path dir) throws IOException {
    StringBuilder all = new StringBuilder();
    List<Path> parts = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().forEach(parts::add);
    }
    for (Path p : parts) {
      all.append("== ").append(p.getFileName()).append('\n').append(Files.readString(p));
    }
    return all.toString();
  }

  public static long themis(Counters counters, String name) {
    return counters.findCounter(ThemisCounters.GROUP, name).getValue();
  }

  /** Captures Levee's and Hadoop's log lines while {@code body} runs (for failure messages). */
  public static String logsOf(ThrowingRunnable body) throws Exception {
    StringWriter text = new StringWriter();
    org.apache.log4j.WriterAppender appender =
        new org.apache.log4j.WriterAppender(new org.apache.log4j.SimpleLayout(), text);
    appender.setThreshold(org.apache.log4j.Level.WARN);
    org.apache.log4j.Logger.getRootLogger().addAppender(appender);
    try {
      body.run();
    } finally {
      org.apache.log4j.Logger.getRootLogger().removeAppender(appender);
    }
    return text.toString();
  }

  public interface ThrowingRunnable {
    void run() throws Exception;
  }
}
