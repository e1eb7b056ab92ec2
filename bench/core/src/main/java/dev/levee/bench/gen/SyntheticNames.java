package dev.levee.bench.gen;

/**
 * Pronounceable, distinct names for ranks (domains, words): rank r is written in base 100 with one
 * consonant-vowel syllable per digit, so the mapping is a bijection, stable, and needs no
 * dictionary.
 */
public final class SyntheticNames {
  private static final String CONSONANTS = "bdfgklmnprstvz"; // 14 ... 10 used
  private static final String VOWELS = "aeiouy"; // ... with these 10 make 100 syllables
  private static final String[] SYLLABLES = new String[100];
  private static final String[] TLDS = {
    "com", "org", "net", "de", "fr", "jp", "uk", "br", "it", "ru", "es", "nl"
  };

  static {
    for (int i = 0; i < 100; i++) {
      SYLLABLES[i] =
          ""
              + CONSONANTS.charAt(i / 10)
              + VOWELS.charAt(i % 10 % VOWELS.length())
              + (i % 10 >= VOWELS.length() ? "n" : "");
    }
  }

  private SyntheticNames() {}

  /** A word for rank >= 1: at least two syllables so short ranks still look like words. */
  public static void word(long rank, RecordBuffer out) {
    long v = rank;
    int syllables = 0;
    long probe = v;
    do {
      syllables++;
      probe /= 100;
    } while (probe > 0);
    if (syllables < 2) {
      out.ascii(SYLLABLES[0]);
    }
    long div = 1;
    for (int i = 1; i < syllables; i++) {
      div *= 100;
    }
    for (; div > 0; div /= 100) {
      out.ascii(SYLLABLES[(int) ((v / div) % 100)]);
    }
  }

  /** A host name for domain rank >= 1, e.g. "www.bomelu.de"; the TLD cycles with the rank. */
  public static void domain(long rank, RecordBuffer out) {
    out.ascii("www.");
    word(rank, out);
    out.append('.').ascii(TLDS[(int) (rank % TLDS.length)]);
  }
}
