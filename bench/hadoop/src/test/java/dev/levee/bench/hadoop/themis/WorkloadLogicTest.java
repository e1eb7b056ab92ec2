package dev.levee.bench.hadoop.themis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.themis.ThemisConf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The workloads' own logic, without a cluster: selection, n-grams, ranks, sessions. */
class WorkloadLogicTest {

  @Test
  void cpuSharesComeFromTheSamplesAroundAPhase() {
    // cpu user nice system idle iowait irq softirq steal
    CpuSampler.Sample a = CpuSampler.parse(1_000, "cpu  100 0 50 800 50 0 0 0");
    CpuSampler.Sample b = CpuSampler.parse(2_000, "cpu  250 0 100 820 80 0 0 0");
    CpuSampler.Sample c = CpuSampler.parse(3_000, "cpu  400 0 150 840 110 0 0 0");
    assertEquals(1000, a.total());
    // Between 1.0 s and 2.0 s: 200 of 250 jiffies busy, 30 in iowait.
    CpuSampler.Share s = CpuSampler.between(List.of(a, b, c), 1_000, 2_000);
    assertEquals(0.8, s.busy(), 1e-9);
    assertEquals(0.12, s.iowait(), 1e-9);
    // A phase inside one sampling period takes the samples around it.
    assertEquals(0.8, CpuSampler.between(List.of(a, b, c), 1_200, 1_900).busy(), 1e-9);
    assertTrue(Double.isNaN(CpuSampler.between(List.of(a, b), 1_500, 2_500).busy()));
    assertNull(CpuSampler.parse(0, "intr 1 2 3"));
  }

  @Test
  void workloadsAreSelectedByNameInTheRegistryOrder() {
    Workloads all = Workloads.all();
    assertEquals(
        List.of("sort", "pareto", "wordcount", "5grams", "pagerank", "sessions"), all.names());
    assertEquals(6, all.select("workloads", "all").size());
    assertEquals(
        List.of("sort", "sessions"),
        all.select("workloads", "sessions, sort").stream().map(ThemisWorkload::name).toList());
    BadArgumentException unknown =
        assertThrows(BadArgumentException.class, () -> all.select("workloads", "sort,grep"));
    assertTrue(
        unknown.getMessage().startsWith("--workloads: unknown workload 'grep'; allowed: all, or"),
        unknown.getMessage());
    assertThrows(BadArgumentException.class, () -> all.select("workloads", "sort,sort"));
    assertThrows(BadArgumentException.class, () -> all.select("workloads", ""));
  }

  @Test
  void variantsAreSelectedByLabelInDeclarationOrderAndOnlyPlannedOnesChangeTheReducers() {
    assertEquals(
        List.of(ShuffleVariant.STOCK_DEFAULT, ShuffleVariant.STOCK_TUNED, ShuffleVariant.THEMIS),
        ShuffleVariant.select("variants", ShuffleVariant.DEFAULT_SELECTION));
    assertEquals(6, ShuffleVariant.select("variants", "all").size());
    assertEquals(
        List.of(ShuffleVariant.STOCK_TUNED_PLANNED, ShuffleVariant.THEMIS_PLANNED),
        ShuffleVariant.select("variants", "themis-planned, stock-tuned-planned"));
    BadArgumentException unknown =
        assertThrows(
            BadArgumentException.class, () -> ShuffleVariant.select("variants", "themis,fast"));
    assertTrue(
        unknown.getMessage().startsWith("--variants: unknown variant 'fast'; allowed: all, or"),
        unknown.getMessage());
    assertThrows(
        BadArgumentException.class, () -> ShuffleVariant.select("variants", "themis,themis"));
    assertTrue(ShuffleVariant.THEMIS_PLANNED.planned && ShuffleVariant.THEMIS_PLANNED.themis);
    assertTrue(ShuffleVariant.STOCK_TUNED_PLANNED.planned);
    assertTrue(!ShuffleVariant.STOCK_TUNED_PLANNED.themis && !ShuffleVariant.THEMIS.planned);
  }

  @Test
  void theEqualMemoryVariantGivesThemisStockTunedsSortBufferAndEachLineSaysWhich() {
    Configuration base = new Configuration(false);
    int heapMb = 400;
    assertEquals(
        180.0,
        ShuffleVariant.mapBufferMb(
            ShuffleVariant.STOCK_TUNED, ShuffleVariant.STOCK_TUNED.apply(base, 180), heapMb));
    assertEquals(
        200.0,
        ShuffleVariant.mapBufferMb(
            ShuffleVariant.THEMIS, ShuffleVariant.THEMIS.apply(base, 180), heapMb),
        "Themis's default: half the heap");
    Configuration equal = ShuffleVariant.THEMIS_EQUAL_MEMORY.apply(base, 180);
    assertEquals(
        180.0, ShuffleVariant.mapBufferMb(ShuffleVariant.THEMIS_EQUAL_MEMORY, equal, heapMb));
    assertEquals(String.valueOf(180L << 20), equal.get(ThemisConf.MAP_BUFFER_SIZE.name()));
    assertEquals(
        100.0,
        ShuffleVariant.mapBufferMb(
            ShuffleVariant.STOCK_DEFAULT, ShuffleVariant.STOCK_DEFAULT.apply(base, 180), heapMb));
  }

  @Test
  void outputsSplitIntoDifferentPartsHaveTheSameRecordsButNotTheSameParts() {
    OutputDigest two =
        new OutputDigest(3, List.of("part-r-00000:2:a", "part-r-00001:1:5"), 15, true, null);
    OutputDigest three =
        new OutputDigest(
            3, List.of("part-r-00000:1:4", "part-r-00001:1:6", "part-r-00002:1:5"), 15, true, null);
    assertTrue(two.sameRecordsAs(three));
    assertTrue(!two.sameAs(three));
    assertTrue(!two.sameRecordsAs(new OutputDigest(3, two.parts(), 16, true, null)));
  }

  @Test
  void nGramsAreEveryRunOfNWordsWhateverTheSpacing() throws Exception {
    assertEquals(List.of("a bb", "bb  c", "c d"), grams("  a bb  c d ", 2));
    assertEquals(List.of("a", "bb", "c"), grams("a bb c", 1));
    assertEquals(
        List.of("one two three four five", "two three four five six"),
        grams("one two three four five six", 5));
    assertEquals(List.of(), grams("too few words here", 5));
    assertEquals(List.of(), grams("", 1));
  }

  private static List<String> grams(String line, int n) throws Exception {
    byte[] b = line.getBytes(StandardCharsets.US_ASCII);
    List<String> out = new ArrayList<>();
    NGramCountWorkload.forEachGram(
        b,
        b.length,
        n,
        new int[n],
        (start, length) -> out.add(new String(b, start, length, StandardCharsets.US_ASCII)));
    return out;
  }

  @Test
  void pageRankIsIntegerArithmeticSoTheOrderOfContributionsDoesNotMatter() {
    // A scaled input keeps one line per vertex (8x: 4M vertices, ids past the default 500k's
    // width).
    assertEquals("4000000", PageRankWorkload.powerLaw().datasetOptions(4_000_000).get("vertices"));
    assertEquals(333_333, PageRankWorkload.contribution(1_000_000, 3));
    assertEquals(0, PageRankWorkload.contribution(1_000_000, 0));
    // No in-links: only the random jump, 0.15.
    assertEquals(150_000, PageRankWorkload.nextRank(0));
    // A vertex every one of whose 3 in-linking vertices links only to it keeps rank 0.15 + 0.85*3.
    assertEquals(150_000 + 2_550_000, PageRankWorkload.nextRank(3_000_000));
  }
}
