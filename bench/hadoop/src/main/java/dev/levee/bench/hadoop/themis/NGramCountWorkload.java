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
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;

/**
 * The paper's WordCount and n-gram count over Zipf text (bench-core's {@code text}): each line's
 * runs of n consecutive words are counted. WordCount (n = 1) runs the sum as a combiner too, the
 * classic job; 5-grams run without one, as most 5-grams occur once and a combiner would only cost
 * map CPU (the paper's n-gram job shuffles 8x its input), which keeps its shuffle the largest.
 */
final class NGramCountWorkload extends DatasetWorkload {
  static final String N = "levee.bench.themis.ngram.n";

  private final int n;
  private final boolean combiner;

  private NGramCountWorkload(
      String name, int n, boolean combiner, long defaultRecords, double bytesPerInputByte) {
    super(name, "text", Map.of(), 13, defaultRecords, bytesPerInputByte);
    this.n = n;
    this.combiner = combiner;
  }

  static NGramCountWorkload wordCount() {
    // A word is about 7 bytes of input with its space; its record is the word, a vint, 8 bytes of
    // count, 2 bytes of framing and 16 of metadata.
    return new NGramCountWorkload("wordcount", 1, true, 1_000_000, 32 / 7.0);
  }

  static NGramCountWorkload fiveGrams() {
    // Each word starts a 5-gram of about 35 bytes: 61 bytes of sort buffer per 7 input bytes.
    return new NGramCountWorkload("5grams", 5, false, 700_000, 61 / 7.0);
  }

  @Override
  public String description(long records) {
    return String.format(
        Locale.ROOT,
        "%s over %,d lines of Zipf(1) text (5-20 words from 100,000)%s",
        n == 1 ? "WordCount" : n + "-gram count",
        records,
        combiner ? ", with a combiner" : ", no combiner");
  }

  @Override
  public long expectedOutputRecords(long inputRecords) {
    return -1;
  }

  @Override
  public Job createJob(Configuration conf, Path in, Path out, int reducers) throws IOException {
    Job job =
        textOutputJob(
            conf,
            "themis-bench-" + name(),
            NGramCountWorkload.class,
            TextInputFormat.class,
            in,
            out,
            reducers);
    job.getConfiguration().setInt(N, n);
    job.setMapperClass(GramMapper.class);
    if (combiner) {
      job.setCombinerClass(LongSumReducer.class);
    }
    job.setReducerClass(LongSumReducer.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(LongWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    return job;
  }

  /** Receives each n-gram of a line as a slice of the line's bytes. */
  interface GramSink {
    void accept(int start, int length) throws IOException, InterruptedException;
  }

  /**
   * Calls {@code sink} for every run of {@code n} consecutive words of {@code line[0, length)},
   * words being separated by one or more spaces; {@code starts} is scratch of n entries; the slice
   * spans the words and the spaces between them. A line of fewer than n words has none.
   */
  static void forEachGram(byte[] line, int length, int n, int[] starts, GramSink sink)
      throws IOException, InterruptedException {
    int words = 0;
    int i = 0;
    while (i < length) {
      while (i < length && line[i] == ' ') {
        i++;
      }
      if (i == length) {
        break;
      }
      int start = i;
      while (i < length && line[i] != ' ') {
        i++;
      }
      // A ring of the last n words' starts: no allocation per word.
      starts[words % n] = start;
      words++;
      if (words >= n) {
        int first = starts[(words - n) % n];
        sink.accept(first, i - first);
      }
    }
  }

  static final class GramMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final Text gram = new Text();
    private int n;
    private int[] starts;

    @Override
    protected void setup(Context context) {
      n = context.getConfiguration().getInt(N, 1);
      starts = new int[n];
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      byte[] b = line.getBytes();
      forEachGram(
          b,
          line.getLength(),
          n,
          starts,
          (start, length) -> {
            gram.set(b, start, length);
            context.write(gram, ONE);
          });
    }
  }
}
