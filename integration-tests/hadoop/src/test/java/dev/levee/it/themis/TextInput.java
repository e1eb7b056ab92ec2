package dev.levee.it.themis;

import dev.levee.bench.gen.SplitMix64;
import dev.levee.bench.gen.ZipfSampler;
import dev.levee.it.hadoop.ClusterFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Seeded test inputs written to HDFS, one file per intended map. */
final class TextInput {
  private TextInput() {}

  /** Lines of words whose frequencies fall off like real text's (a few words dominate). */
  static Path words(FileSystem fs, Path dir, int files, int lines, long seed) throws IOException {
    Random random = new Random(seed);
    for (int f = 0; f < files; f++) {
      List<String> out = new ArrayList<>();
      for (int l = 0; l < lines; l++) {
        StringBuilder line = new StringBuilder();
        int words = 1 + random.nextInt(10);
        for (int w = 0; w < words; w++) {
          line.append(w == 0 ? "" : " ")
              .append("w")
              .append((int) Math.floor(Math.pow(5_000, random.nextDouble())));
        }
        out.add(line.toString());
      }
      ClusterFiles.writeLines(fs, new Path(dir, "words-" + f + ".txt"), out);
    }
    return dir;
  }

  /**
   * "key TAB value" lines with Zipf(s) keys over {@code keys} keys and values of {@code valueBytes}
   * letters: a few keys carry a large share of the bytes.
   */
  static Path zipf(
      FileSystem fs, Path dir, int files, int lines, int keys, double s, int valueBytes, long seed)
      throws IOException {
    ZipfSampler ranks = new ZipfSampler(keys, s);
    SplitMix64 keyDraws = new SplitMix64(seed);
    Random random = new Random(seed);
    for (int f = 0; f < files; f++) {
      List<String> out = new ArrayList<>();
      for (int l = 0; l < lines; l++) {
        long k = ranks.sample(keyDraws) - 1;
        StringBuilder value = new StringBuilder(valueBytes);
        for (int c = 0; c < valueBytes; c++) {
          value.append((char) ('a' + random.nextInt(26)));
        }
        out.add(String.format("k%05d\t%s", k, value));
      }
      ClusterFiles.writeLines(fs, new Path(dir, "zipf-" + f + ".tsv"), out);
    }
    return dir;
  }

  /**
   * A click log, "timestamp_ms TAB user TAB url", in time order within each file, users Zipf-like:
   * the input of the paper's Click-Sessions job.
   */
  static Path clicks(FileSystem fs, Path dir, int files, int lines, long seed) throws IOException {
    Random random = new Random(seed);
    long start = 1_767_225_600_000L;
    for (int f = 0; f < files; f++) {
      List<String> out = new ArrayList<>();
      long ts = start + f * 1_000L;
      for (int l = 0; l < lines; l++) {
        // Bursts of activity separated by quiet gaps, so sessions have several clicks each.
        ts +=
            random.nextInt(10) < 8 ? random.nextInt(90_000) : 1_800_000 + random.nextInt(3_600_000);
        int user = (int) Math.floor(Math.pow(400, random.nextDouble()));
        out.add(
            ts
                + "\tu"
                + user
                + "\thttp://www.site"
                + random.nextInt(50)
                + ".com/p"
                + random.nextInt(1_000));
      }
      ClusterFiles.writeLines(fs, new Path(dir, "clicks-" + f + ".tsv"), out);
    }
    return dir;
  }
}
