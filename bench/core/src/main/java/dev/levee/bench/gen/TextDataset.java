package dev.levee.bench.gen;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
import java.util.List;

/**
 * Lines of text whose word frequencies follow Zipf's law, as natural-language text does: each line
 * holds a uniform number of words in [min-words, max-words], each word drawn Zipf(s) over a
 * synthetic vocabulary ({@link SyntheticNames#word}). Input for word counting and n-gram counting.
 */
public final class TextDataset implements Dataset {
  private static final long WORDS_STREAM = 21;

  @Override
  public String name() {
    return "text";
  }

  @Override
  public String summary() {
    return "lines of space-separated words, word frequencies Zipf(s) over a vocabulary of n";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.optional("vocabulary", "N", "distinct words", "100000"),
        OptionSpec.optional("s", "S", "Zipf exponent of word frequencies (> 0)", "1.0"),
        OptionSpec.optional("min-words", "K", "fewest words in a line", "5"),
        OptionSpec.optional("max-words", "K", "most words in a line", "20"));
  }

  @Override
  public RecordGenerator configure(long seed, ParsedOptions options) {
    ZipfSampler words =
        new ZipfSampler(options.longAtLeast("vocabulary", 1), options.doubleIn("s", 0, 100, true));
    int min = options.intIn("min-words", 1, 100_000);
    int max = options.intIn("max-words", 1, 100_000);
    if (max < min) {
      throw new BadArgumentException(
          "--max-words: must be >= --min-words (" + min + "), got " + max);
    }
    return new Generator(seed, words, min, max);
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
