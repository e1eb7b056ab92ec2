package dev.levee.piranha.examples.web;

import dev.levee.piranha.examples.TopWords;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;

/**
 * The paper's TopKWords: the k most frequent whitespace-separated tokens of the whole lines. Many
 * groups (high selectivity), so intermediates are about as large as the input: the query where
 * materialization and redundant stages cost most. The chain is piranha-dag's own example.
 */
public final class TopKWordsQuery implements PaperQuery {
  public static final String NAME = "top-k-words";
  public static final int K = 20;
  private final int reducers;

  public TopKWordsQuery(int reducers) {
    this.reducers = reducers;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Job> chain(Configuration conf, Path in, Path tmp, Path out) throws IOException {
    return TopWords.chain(conf, in, tmp, out, reducers, K);
  }

  /**
   * TextLoader keeps the whole line (PigStorage would split it at tabs), and TOKENIZE splits at the
   * blanks the chain's StringTokenizer splits at.
   */
  @Override
  public String pigScript() {
    return String.join(
        "\n",
        "lines = LOAD '$in' USING TextLoader() AS (line:chararray);",
        "words = FOREACH lines GENERATE FLATTEN(TOKENIZE(line, ' \\t')) AS word;",
        "by_word = GROUP words BY word PARALLEL " + reducers + ";",
        "counts = FOREACH by_word GENERATE group AS word, COUNT_STAR(words) AS n;",
        "ordered = ORDER counts BY n DESC, word ASC;",
        "top = LIMIT ordered " + K + ";",
        "STORE top INTO '$out';");
  }
}
