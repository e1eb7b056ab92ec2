package dev.levee.containers.jobs;

import dev.levee.it.sponge.SkewedShuffleJob;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * What the client container submits: integration-tests/hadoop's {@link SkewedShuffleJob} (Zipf
 * keys, one reducer, each map generating its records from a seed, the reducer writing per key a
 * count and an order-independent digest), the same job its mini-cluster tests run.
 *
 * <p>{@code SkewedShuffle [-D k=v ...] <output> <maps> <records-per-map> <value-bytes>} runs it and
 * prints, for the test that drives the client, one {@code COUNTER\tgroup\tname\tvalue} line per
 * counter and {@code OUTPUT\tlines\tsha256} over the sorted output; exit status 0 when the job
 * succeeded.
 */
public final class SkewedShuffle extends Configured implements Tool {
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
    Configuration conf = getConf();
    FileSystem fs = output.getFileSystem(conf);
    Path input = new Path(output.getParent(), output.getName() + "-seeds");
    fs.delete(output, true);
    SkewedShuffleJob.writeInput(fs, input, Integer.parseInt(args[1]));
    // The job jar is the class's own: integration-tests/hadoop's test jar.
    Job job =
        SkewedShuffleJob.configure(
            Job.getInstance(conf, conf.get("mapreduce.job.name", "skewed-shuffle")),
            input,
            output,
            Long.parseLong(args[2]),
            Integer.parseInt(args[3]));
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
        return "OUTPUT\t" + lines.size() + "\t" + HexFormat.of().formatHex(sha.digest());
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
