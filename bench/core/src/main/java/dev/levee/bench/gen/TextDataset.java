package dev.levee.bench.gen;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.Range;
import dev.levee.bench.cli.Validated;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Lines of text whose word frequencies follow Zipf's law, as natural-language text does: each line
 * holds a uniform number of words in [min-words, max-words], each word drawn Zipf(s) over a
 * synthetic vocabulary ({@link SyntheticNames#word}). Input for word counting and n-gram counting.
 */
public final class TextDataset implements Dataset<TextDataset.Options> {
  private static final long WORDS_STREAM = 21;

  @Override
  public String name() {
    return "text";
  }

  @Override
  public String summary() {
    return "lines of space-separated words, word frequencies Zipf(s) over a vocabulary of n";
  }

  /** The dataset's options. */
  public static final class Options implements Validated {
    @Option(names = "--vocabulary", paramLabel = "N", description = "distinct words")
    @Range(min = 1)
    long vocabulary = 100_000;

    @Option(names = "--s", paramLabel = "S", description = "Zipf exponent of word frequencies")
    @Range(min = 0, max = 100, exclusiveMin = true)
    double s = 1.0;

    @Option(names = "--min-words", paramLabel = "K", description = "fewest words in a line")
    @Range(min = 1, max = 100_000)
    int minWords = 5;

    @Option(names = "--max-words", paramLabel = "K", description = "most words in a line")
    @Range(min = 1, max = 100_000)
    int maxWords = 20;

    @Override
    public void validate() {
      if (maxWords < minWords) {
        throw new BadArgumentException(
            "--max-words: must be >= --min-words (" + minWords + "), got " + maxWords);
      }
    }
  }

  @Override
  public Options newOptions() {
    return new Options();
  }

  @Override
  public RecordGenerator configure(long seed, Options o) {
    return new Generator(seed, new ZipfSampler(o.vocabulary, o.s), o.minWords, o.maxWords);
  }

  private record Generator(long seed, ZipfSampler words, int minWords, int maxWords)
      implements RecordGenerator {
    @Override
    public void write(long index, SplitMix64 rng, RecordBuffer out) {
      rng.reseed(seed, WORDS_STREAM, index);
      int n = minWords + rng.nextInt(maxWords - minWords + 1);
      for (int w = 0; w < n; w++) {
        if (w > 0) {
          out.append(' ');
        }
        SyntheticNames.word(words.sample(rng), out);
      }
      out.newline();
    }

    @Override
    public List<String> columns() {
      return List.of("text");
    }

    @Override
    public RecordGenerator copy() {
      return this; // all state lives in the rng the caller passes
    }
  }
}
