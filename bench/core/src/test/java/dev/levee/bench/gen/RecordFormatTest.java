package dev.levee.bench.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordFormatTest {
  @TempDir Path tmp;

  @Test
  void teraSortRecordsAreHundredBytesWithTenByteKeys() throws Exception {
    GeneratedData.generate("terasort", tmp, 2_000, 1, 2, 2);
    byte[] all = GeneratedData.concatenatedParts(tmp);
    assertEquals(200_000, all.length);
    Set<String> keys = new HashSet<>();
    for (int r = 0; r < 2_000; r++) {
      int off = r * 100;
      for (int i = 0; i < 10; i++) {
        assertTrue(all[off + i] >= '!' && all[off + i] <= '~', "printable key byte");
      }
      assertEquals('\t', all[off + 10]);
      assertEquals('\n', all[off + 99]);
      String rowId = new String(all, off + 11, 32, java.nio.charset.StandardCharsets.US_ASCII);
      assertEquals(r, Long.parseLong(rowId, 16));
      keys.add(new String(all, off, 10, java.nio.charset.StandardCharsets.US_ASCII));
    }
    assertTrue(keys.size() > 1_990, "keys are random: " + keys.size() + " distinct");
  }

  @Test
  void zipfKeysAreSkewedAsConfigured() throws Exception {
    GeneratedData.generate(
        "zipf", tmp, 100_000, 5, 1, 1, "--keys", "1000", "--s", "1.0", "--value-size", "fixed:20");
    Map<String, Integer> counts = new HashMap<>();
    for (String line : GeneratedData.lines(tmp)) {
      String[] f = line.split("\t", -1);
      assertEquals(2, f.length);
      assertEquals(5, f[0].length(), "k + 4 digits for a key space of 1000");
      assertEquals(20, f[1].length());
      counts.merge(f[0], 1, Integer::sum);
    }
    double expectedTop = new ZipfSampler(1000, 1.0).probability(1); // 1 / H_1000 = 0.1336
    assertEquals(expectedTop, counts.get("k0001") / 100_000.0, 0.005);
    assertTrue(counts.get("k0001") > 1.8 * counts.get("k0002"), "rank 2 gets about half of rank 1");
  }

  @Test
  void uniformKeysAreFlat() throws Exception {
    GeneratedData.generate(
        "uniform", tmp, 50_000, 5, 1, 1, "--keys", "10", "--value-size", "fixed:1");
    Map<String, Integer> counts = new HashMap<>();
    GeneratedData.lines(tmp).forEach(l -> counts.merge(l.split("\t")[0], 1, Integer::sum));
    assertEquals(10, counts.size());
    counts.values().forEach(c -> assertEquals(5_000, c, 300));
  }

  @Test
  void paretoValueLengthsStayInRangeWithAHeavyTail() throws Exception {
    GeneratedData.generate("pareto", tmp, 20_000, 5, 1, 1, "--value-size", "pareto:1.2,10,5000");
    int min = Integer.MAX_VALUE;
    int max = 0;
    long sum = 0;
    for (String line : GeneratedData.lines(tmp)) {
      int len = line.split("\t", -1)[1].length();
      min = Math.min(min, len);
      max = Math.max(max, len);
      sum += len;
    }
    assertEquals(10, min);
    assertTrue(max <= 5000 && max > 1000, "max " + max);
    double mean = sum / 20_000.0;
    // Lengths are the truncated law rounded down: mean - 1 < observed < mean, within sampling
    // error.
    assertEquals(new ParetoSampler(1.2, 10, 5000).mean() - 0.5, mean, 4.0);
  }

  @Test
  void webPagesHaveSixWellFormedColumns() throws Exception {
    GeneratedData.generate("web", tmp, 5_000, 9, 2, 2, "--domains", "200");
    Set<String> urls = new HashSet<>();
    Map<String, Integer> domains = new HashMap<>();
    Set<String> languages = Set.of(WebDataset.LANGUAGES);
    List<String> lines = GeneratedData.lines(tmp);
    for (int i = 0; i < lines.size(); i++) {
      String[] f = lines.get(i).split("\t", -1);
      assertEquals(6, f.length, lines.get(i));
      assertTrue(f[0].startsWith("http://" + f[1] + "/") && f[0].endsWith("/" + i + ".html"), f[0]);
      assertTrue(urls.add(f[0]), "unique url");
      assertTrue(languages.contains(f[2]), f[2]);
      double spam = Double.parseDouble(f[3]);
      assertTrue(spam >= 0 && spam <= 1);
      assertTrue(Long.parseLong(f[4]) >= 0);
      int words = f[5].split(" ").length;
      assertTrue(words >= 1 && words <= 6, f[5]);
      domains.merge(f[1], 1, Integer::sum);
    }
    int top = domains.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
    // Zipf(1) over 200 domains: the top domain holds 1/H_200 = 17% of pages.
    assertEquals(0.17, top / 5_000.0, 0.03);
  }

  @Test
  void textLinesHoldTheirWordCountAndZipfFrequencies() throws Exception {
    GeneratedData.generate(
        "text",
        tmp,
        20_000,
        3,
        2,
        2,
        "--vocabulary",
        "1000",
        "--min-words",
        "5",
        "--max-words",
        "8");
    Map<String, Integer> counts = new HashMap<>();
    long words = 0;
    for (String line : GeneratedData.lines(tmp)) {
      String[] w = line.split(" ", -1);
      assertTrue(w.length >= 5 && w.length <= 8, line);
      for (String word : w) {
        assertTrue(word.matches("[a-z]+"), word);
        counts.merge(word, 1, Integer::sum);
      }
      words += w.length;
    }
    assertTrue(counts.size() <= 1000 && counts.size() > 500, counts.size() + " distinct words");
    int top = counts.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
    assertEquals(new ZipfSampler(1000, 1.0).probability(1), top / (double) words, 0.01);
  }

  @Test
  void graphVerticesLinkWithinTheGraphWithPowerLawInDegree() throws Exception {
    GeneratedData.generate(
        "graph",
        tmp,
        10_000,
        5,
        2,
        2,
        "--vertices",
        "10000",
        "--min-degree",
        "2",
        "--max-degree",
        "6",
        "--in-s",
        "1.0");
    Map<Long, Integer> inDegree = new HashMap<>();
    List<String> lines = GeneratedData.lines(tmp);
    for (int i = 0; i < lines.size(); i++) {
      String[] f = lines.get(i).split("\t", -1);
      assertEquals(3, f.length, lines.get(i));
      assertEquals(String.format("%04d", i), f[0], "ids zero-padded to the widest id");
      assertEquals(Long.toString(GraphDataset.INITIAL_RANK), f[1]);
      String[] targets = f[2].split(",");
      assertTrue(targets.length >= 2 && targets.length <= 6, f[2]);
      for (String t : targets) {
        long v = Long.parseLong(t);
        assertTrue(v >= 0 && v < 10_000 && v != i, "target " + t + " of " + i);
        inDegree.merge(v, 1, Integer::sum);
      }
    }
    // Zipf(1) targets: vertex 0 takes 1/H_10000 (10%) of the links, a typical vertex almost none.
    long edges = inDegree.values().stream().mapToLong(Integer::longValue).sum();
    assertEquals(0.10, inDegree.get(0L) / (double) edges, 0.02);
    assertTrue(inDegree.size() < 7_000, inDegree.size() + " vertices have an in-link");
  }

  @Test
  void clicksAreInTimeOrderWithSkewedUsers() throws Exception {
    GeneratedData.generate(
        "clicks", tmp, 20_000, 7, 3, 2, "--users", "1000", "--gap-ms", "50", "--start-ms", "1000");
    Map<String, Integer> users = new HashMap<>();
    long previous = -1;
    List<String> lines = GeneratedData.lines(tmp);
    for (int i = 0; i < lines.size(); i++) {
      String[] f = lines.get(i).split("\t", -1);
      assertEquals(3, f.length, lines.get(i));
      long ts = Long.parseLong(f[0]);
      assertTrue(ts >= 1000 + i * 50L && ts < 1000 + (i + 1) * 50L, "click " + i + " at " + ts);
      assertTrue(ts > previous);
      previous = ts;
      assertTrue(f[1].matches("u[0-9]+"), f[1]);
      assertTrue(f[2].matches("http://www\\.[a-z]+\\.[a-z]+/[a-z]+/[0-9]+\\.html"), f[2]);
      users.merge(f[1], 1, Integer::sum);
    }
    // Zipf(1) over 1000 users: u1 clicks 1/H_1000 = 13% of the time.
    assertEquals(0.134, users.get("u1") / 20_000.0, 0.01);
  }
}
