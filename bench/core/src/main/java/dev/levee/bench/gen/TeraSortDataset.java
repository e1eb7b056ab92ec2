package dev.levee.bench.gen;

import java.util.List;

/**
 * 100-byte TeraSort records in the spirit of gensort's ASCII mode, laid out so that both readers
 * work on the same file: Hadoop's TeraInputFormat (fixed 10-byte key, 90-byte value) and any
 * line/TSV reader (key TAB value NEWLINE).
 *
 * <pre>
 * bytes  0..9   key: 10 random printable characters '!'..'~' (94 letters, never a tab or space)
 * byte   10     TAB
 * bytes 11..42  record number, 32 hex digits (gensort's row id)
 * bytes 43..98  filler: 14 groups of 4 equal hex letters that cycle with the record number
 * byte   99     NEWLINE
 * </pre>
 */
public final class TeraSortDataset implements Dataset<Object> {
  public static final int RECORD_BYTES = 100;
  public static final int KEY_BYTES = 10;
  private static final long KEY_STREAM = 3;

  @Override
  public String name() {
    return "terasort";
  }

  @Override
  public String summary() {
    return "100-byte records: 10-byte printable key, 90-byte value (TAB, 32-hex row id, filler, NEWLINE)";
  }

  @Override
  public Object newOptions() {
    return new Object(); // no options of its own
  }

  @Override
  public RecordGenerator configure(long seed, Object options) {
    return new Generator(seed);
  }

  private record Generator(long seed) implements RecordGenerator {
    private static final byte[] HEX =
        "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    @Override
    public void write(long index, SplitMix64 rng, RecordBuffer out) {
      rng.reseed(seed, KEY_STREAM, index);
      for (int i = 0; i < KEY_BYTES; i++) {
        out.append((byte) ('!' + rng.nextInt(94)));
      }
      out.tab();
      out.hex(0, 16).hex(index, 16);
      for (int g = 0; g < 14; g++) {
        byte c = HEX[(int) ((index + g) & 0xF)];
        out.append(c).append(c).append(c).append(c);
      }
      out.newline();
    }

    @Override
    public List<String> columns() {
      return List.of("key", "value");
    }

    @Override
    public RecordGenerator copy() {
      return this; // stateless
    }
  }
}
