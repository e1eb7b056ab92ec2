package dev.levee.piranha.examples;

import dev.levee.piranha.dag.MrChain;
import dev.levee.piranha.dag.PiranhaDag;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringTokenizer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.map.InverseMapper;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;

/**
 * The paper's running example (its Figs 4 and 6): the k most frequent words, as two chained
 * MapReduce jobs with stock Hadoop classes (count words; invert and keep the top k with one
 * reducer), and the same query as a Piranha DAG. The two are the same classes, so the chain is the
 * oracle for the DAG.
 */
public final class TopWords {
  /** How many words the query keeps. */
  public static final String K = "levee.example.topk.k";

  /**
   * The same query in Pig Latin (the README's): the {@code k} most frequent tokens longer than two
   * characters of the lines under {@code $in}, ties by word, stored to {@code $out}; run it with
   * {@code pig -x piranha -p in=... -p out=...}, or replace the two parameters.
   */
  public static String pigScript(int k) {
    return String.join(
        "\n",
        "lines = LOAD '$in' AS (line:chararray);",
        "words = FOREACH lines GENERATE FLATTEN(TOKENIZE(line)) AS word;",
        "kept = FILTER words BY SIZE(word) > 2;",
        "grouped = GROUP kept BY word;",
        "counts = FOREACH grouped GENERATE group AS word, COUNT(kept) AS n;",
        "ordered = ORDER counts BY n DESC, word ASC;",
        "top = LIMIT ordered " + k + ";",
        "STORE top INTO '$out';");
  }

  private TopWords() {}

  /** Splits lines on whitespace: (word, 1). Open for tests that add hooks around it. */
  public static class WordMapper extends Mapper<Object, Text, Text, LongWritable> {
    private final Text word = new Text();
    private final LongWritable one = new LongWritable(1);

    @Override
    protected void map(Object key, Text line, Context context)
        throws IOException, InterruptedException {
      StringTokenizer t = new StringTokenizer(line.toString());
      while (t.hasMoreTokens()) {
        word.set(t.nextToken());
        context.write(word, one);
      }
    }
  }

  /**
   * Keys arrive by decreasing count; within a count the words are sorted, and the first k (count,
   * word) pairs are written, so ties break by word and the output is deterministic.
   */
  public static final class TopReducer extends Reducer<LongWritable, Text, LongWritable, Text> {
    private int left;

    @Override
    protected void setup(Context context) {
      left = context.getConfiguration().getInt(K, 10);
    }

    @Override
    protected void reduce(LongWritable count, Iterable<Text> words, Context context)
        throws IOException, InterruptedException {
      if (left <= 0) {
        return;
      }
      List<String> sorted = new ArrayList<>();
      for (Text w : words) {
        sorted.add(w.toString());
      }
      sorted.sort(null);
      for (String w : sorted) {
        if (left-- <= 0) {
          return;
        }
        context.write(count, new Text(w));
      }
    }
  }

  /** The query as two stock jobs; the first writes SequenceFiles to {@code tmp}. */
  public static List<Job> chain(
      Configuration conf, Path input, Path tmp, Path output, int reducers, int k)
      throws IOException {
    return List.of(
        TopKJob.count(conf, "top-words: count", input, WordMapper.class, reducers, tmp),
        TopKJob.top(conf, "top-words: top " + k, tmp, k, output));
  }

  /** The same two jobs as one Piranha DAG (nothing is written to {@code tmp}). */
  public static PiranhaDag dagFromChain(
      Configuration conf, Path input, Path tmp, Path output, int reducers, int k)
      throws IOException {
    return MrChain.of("top-words", conf, chain(conf, input, tmp, output, reducers, k));
  }

  /** The same query written with the DAG builder: count, then top k, no redundant stage. */
  public static PiranhaDag dag(Path input, Path output, int reducers, int k) {
    return dag("top-words", WordMapper.class, input, output, reducers, k);
  }

  /**
   * The query with another scan mapper emitting (word, 1): tests substitute one they can stall or
   * kill.
   */
  public static PiranhaDag dag(
      String name,
      Class<? extends Mapper<Object, Text, Text, LongWritable>> scan,
      Path input,
      Path output,
      int reducers,
      int k) {
    return PiranhaDag.builder(name)
        .initial("scan")
        .inputFormat(TextInputFormat.class)
        .inputPaths(input)
        .mapper(scan)
        .mapOutput(Text.class, LongWritable.class)
        .shuffle("count", reducers)
        .from("scan")
        .reducer(LongSumReducer.class)
        .combiner(LongSumReducer.class)
        .output(Text.class, LongWritable.class)
        .forward("invert")
        .from("count")
        .mapper(InverseMapper.class)
        .mapOutput(LongWritable.class, Text.class)
        .shuffle("top", 1)
        .from("invert")
        .reducer(TopReducer.class)
        .sortComparator(LongWritable.DecreasingComparator.class)
        .output(LongWritable.class, Text.class)
        .set(K, Integer.toString(k))
        .outputFormat(TextOutputFormat.class, output)
        .build();
  }
}
