package dev.levee.bench.hadoop.themis;

import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;

/**
 * One iteration of the paper's PageRank-PL: over bench-core's {@code graph} (power-law in-degree),
 * the map sends each vertex's rank split evenly over its out-links and passes its adjacency list
 * on; the reduce sums a vertex's contributions and writes its new rank with its adjacency list, the
 * next iteration's input. Ranks are integers in millionths, so the sum, and the output, do not
 * depend on the order the contributions arrive in (which differs between shuffles).
 */
final class PageRankWorkload extends DatasetWorkload {
  /** Value tags: a rank contribution, or the vertex's own adjacency list. */
  static final byte CONTRIBUTION = 'c';

  static final byte LINKS = 'l';

  /** Damping 0.85 in hundredths; the random jump gives every vertex 0.15. */
  private static final long DAMPING_PERCENT = 85;

  private static final long JUMP = 150_000;

  private PageRankWorkload(long vertices, double sortBufferBytesPerInputByte) {
    super(
        "pagerank",
        "graph",
        Map.of("vertices", Long.toString(vertices)),
        17,
        vertices,
        sortBufferBytesPerInputByte);
  }

  /**
   * One line per vertex at any size: the vertex count follows the records (a fixed count would give
   * ids past it, and links into vertices without a line, once --scale grows the input).
   */
  @Override
  Map<String, String> datasetOptions(long records) {
    return Map.of("vertices", Long.toString(records));
  }

  static PageRankWorkload powerLaw() {
    // An out-link is 7 input bytes and a 34-byte record in the buffer; the adjacency list is
    // copied once more.
    return new PageRankWorkload(500_000, 34 / 7.0 + 1.2);
  }

  @Override
  public String description(long records) {
    return String.format(
        Locale.ROOT,
        "One PageRank iteration over %,d vertices, 5-30 out-links each, Zipf(0.8) in-degree",
        records);
  }

  @Override
  public long expectedOutputRecords(long inputRecords) {
    return inputRecords;
  }

  @Override
  public Job createJob(Configuration conf, Path in, Path out, int reducers) throws IOException {
    Job job =
        textOutputJob(
            conf,
            "themis-bench-pagerank",
            PageRankWorkload.class,
            TextInputFormat.class,
            in,
            out,
            reducers);
    job.setMapperClass(Spread.class);
    job.setReducerClass(Gather.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    return job;
  }

  /** What each of {@code links} out-links passes on of {@code rank}, rounded down. */
  static long contribution(long rank, int links) {
    return links == 0 ? 0 : rank / links;
  }

  /** The new rank from the sum of the contributions a vertex received. */
  static long nextRank(long contributions) {
    return JUMP + contributions * DAMPING_PERCENT / 100;
  }

  /** "vertex TAB rank TAB t1,t2,..." to (vertex, "c"+share) per link and (vertex, "l"+links). */
  static final class Spread extends Mapper<LongWritable, Text, Text, Text> {
    private final Text key = new Text();
    private final Text value = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String[] f = line.toString().split("\t", -1);
      String targets = f.length > 2 ? f[2] : "";
      String[] links = targets.isEmpty() ? new String[0] : targets.split(",");
      byte[] share =
          Long.toString(contribution(Long.parseLong(f[1]), links.length))
              .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      for (String t : links) {
        key.set(t);
        value.clear();
        value.append(new byte[] {CONTRIBUTION}, 0, 1);
        value.append(share, 0, share.length);
        context.write(key, value);
      }
      key.set(f[0]);
      value.set((char) LINKS + targets);
      context.write(key, value);
    }
  }

  /** Sums a vertex's contributions: "vertex TAB new rank TAB its links". */
  static final class Gather extends Reducer<Text, Text, Text, Text> {
    private final Text out = new Text();

    @Override
    protected void reduce(Text vertex, Iterable<Text> values, Context context)
        throws IOException, InterruptedException {
      long sum = 0;
      String links = "";
      for (Text v : values) {
        if (v.getBytes()[0] == CONTRIBUTION) {
          sum +=
              Long.parseLong(
                  new String(
                      v.getBytes(),
                      1,
                      v.getLength() - 1,
                      java.nio.charset.StandardCharsets.US_ASCII));
        } else {
          links =
              new String(
                  v.getBytes(), 1, v.getLength() - 1, java.nio.charset.StandardCharsets.US_ASCII);
        }
      }
      out.set(nextRank(sum) + "\t" + links);
      context.write(vertex, out);
    }
  }
}
