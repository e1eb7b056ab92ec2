package dev.levee.themis.map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.themis.io.WriteStats;
import dev.levee.themis.map.MapOutputHarness.Rec;
import dev.levee.themis.map.MapOutputHarness.Written;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.crypto.KeyGenerator;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The map side's file.out, read back by Hadoop's own IFile.Reader: every record lands in its
 * partition's segment exactly once, segments are contiguous and in partition order, and the edge
 * cases (empty partitions, records bigger than a slab, one partition, ten thousand partitions, a
 * codec, overflow runs, encryption) change none of that.
 */
class MapOutputWriterTest {
  private Path dir;
  private MapOutputHarness harness;

  @BeforeEach
  void setUp() throws IOException {
    dir = Path.of("target", "map-output-test", UUID.randomUUID().toString()).toAbsolutePath();
    harness = new MapOutputHarness(dir);
  }

  @AfterEach
  void tearDown() {
    FileUtil.fullyDelete(dir.toFile());
  }

  private static List<Rec> randomRecords(int n, int partitions, long seed, int maxValue) {
    Random random = new Random(seed);
    List<Rec> records = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int p = random.nextInt(partitions);
      String key = "k" + random.nextInt(Math.max(1, n / 3));
      StringBuilder value = new StringBuilder("v" + i + ":");
      int len = random.nextInt(maxValue + 1);
      for (int c = 0; c < len; c++) {
        value.append((char) ('a' + random.nextInt(26)));
      }
      records.add(new Rec(p, key, value.toString()));
    }
    return records;
  }

  /** What each partition must hold, in collection order. */
  private static Map<Integer, List<String>> expected(List<Rec> records, int partitions) {
    Map<Integer, List<String>> m = new java.util.TreeMap<>();
    for (int p = 0; p < partitions; p++) {
      m.put(p, new ArrayList<>());
    }
    for (Rec r : records) {
      m.get(r.partition()).add(r.key() + "\t" + r.value());
    }
    return m;
  }

  private static Map<Integer, List<String>> asLines(Map<Integer, List<String[]>> read) {
    Map<Integer, List<String>> m = new java.util.TreeMap<>();
    read.forEach(
        (p, recs) ->
            m.put(p, recs.stream().map(r -> r[0] + "\t" + r[1]).collect(Collectors.toList())));
    return m;
  }

  /** Segments tile the file in partition order with no gap and no overlap. */
  private static void assertContiguous(Written w, int partitions) {
    long expectedStart = 0;
    for (int p = 0; p < partitions; p++) {
      IndexRecord seg = w.index().getIndex(p);
      assertEquals(
          expectedStart, seg.startOffset, "partition " + p + " starts where " + (p - 1) + " ends");
      assertTrue(seg.partLength > 0, "partition " + p + " has its IFile trailer at least");
      expectedStart += seg.partLength;
    }
    assertEquals(w.fileBytes(), expectedStart, "the segments cover file.out exactly");
  }

  private void checkUnsorted(List<Rec> records, int partitions, long budget, CompressionCodec codec)
      throws Exception {
    Written w = harness.write(records, partitions, false, budget, codec, 64 << 10);
    assertContiguous(w, partitions);
    Map<Integer, List<String>> got = asLines(harness.read(w, partitions, codec));
    assertEquals(expected(records, partitions), got);
  }

  @Test
  void everyRecordLandsOnceInItsPartitionInCollectionOrder() throws Exception {
    List<Rec> records = randomRecords(20_000, 7, 1, 40);
    checkUnsorted(records, 7, 64 << 20, null);
    assertEquals(
        records.size(),
        harness.counters.findCounter(TaskCounter.SPILLED_RECORDS).getValue(),
        "SPILLED_RECORDS counts each local write of a record once");
  }

  @Test
  void emptyPartitionsAreValidEmptySegments() throws Exception {
    List<Rec> records = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      records.add(new Rec(i % 2 == 0 ? 1 : 4, "k" + i, "v"));
    }
    checkUnsorted(records, 6, 1 << 20, null);
    Written none = harness.write(List.of(), 3, false, 1 << 20, null, 64 << 10);
    assertContiguous(none, 3);
    assertEquals(expected(List.of(), 3), asLines(harness.read(none, 3, null)));
  }

  @Test
  void aRecordLargerThanASlabGetsItsOwn() throws Exception {
    List<Rec> records = randomRecords(300, 3, 2, 10);
    String big = "x".repeat(200_000);
    records.add(100, new Rec(1, "big", big));
    records.add(new Rec(2, "bigger", big + big));
    // 1 MiB budget: 64 KiB slabs, so both values are far larger than a slab.
    checkUnsorted(records, 3, 1 << 20, null);
  }

  @Test
  void onePartition() throws Exception {
    checkUnsorted(randomRecords(5_000, 1, 3, 30), 1, 64 << 20, null);
  }

  @Test
  void tenThousandPartitions() throws Exception {
    List<Rec> records = randomRecords(30_000, 10_000, 4, 8);
    checkUnsorted(records, 10_000, 64 << 20, null);
  }

  @Test
  void withACodec() throws Exception {
    CompressionCodec deflate = ReflectionUtils.newInstance(DefaultCodec.class, harness.job);
    checkUnsorted(randomRecords(20_000, 5, 5, 60), 5, 64 << 20, deflate);
    CompressionCodec gzip = ReflectionUtils.newInstance(GzipCodec.class, harness.job);
    checkUnsorted(randomRecords(3_000, 40, 6, 60), 40, 64 << 20, gzip);
  }

  @Test
  void sortedModeSortsEachPartitionWithTheJobComparator() throws Exception {
    List<Rec> records = randomRecords(20_000, 4, 7, 20);
    Written w = harness.write(records, 4, true, 64 << 20, null, 64 << 10);
    assertContiguous(w, 4);
    Map<Integer, List<String[]>> read = harness.read(w, 4, null);
    Map<Integer, List<String>> want = expected(records, 4);
    for (int p = 0; p < 4; p++) {
      List<String[]> got = read.get(p);
      for (int i = 1; i < got.size(); i++) {
        assertTrue(
            got.get(i - 1)[0].compareTo(got.get(i)[0]) <= 0, "partition " + p + " sorted at " + i);
      }
      List<String> gotLines = got.stream().map(r -> r[0] + "\t" + r[1]).sorted().toList();
      assertEquals(want.get(p).stream().sorted().toList(), gotLines, "same records in " + p);
    }
  }

  @Test
  void overflowRunsAreCopiedIntoFileOutOnceUnsorted() throws Exception {
    List<Rec> records = randomRecords(40_000, 9, 8, 50);
    CompressionCodec deflate = ReflectionUtils.newInstance(DefaultCodec.class, harness.job);
    for (CompressionCodec codec : new CompressionCodec[] {null, deflate}) {
      harness.counters.findCounter(TaskCounter.SPILLED_RECORDS).setValue(0);
      // A 512 KiB buffer holds a fraction of the 2.5 MB of records.
      Written w = harness.write(records, 9, false, 512 << 10, codec, 64 << 10);
      assertTrue(w.runs() >= 3, "overflowed into runs: " + w.runs());
      assertContiguous(w, 9);
      assertEquals(expected(records, 9), asLines(harness.read(w, 9, codec)));
      long spilled = harness.counters.findCounter(TaskCounter.SPILLED_RECORDS).getValue();
      assertTrue(
          spilled > records.size() && spilled < 2L * records.size(),
          "records in runs are written twice, the rest once: " + spilled);
      try (var files = Files.list(dir)) {
        assertFalse(
            files.anyMatch(f -> f.getFileName().toString().contains("-run-")),
            "runs are deleted once copied");
      }
    }
  }

  @Test
  void overflowRunsAreMergedWhenPartitionsMustBeSorted() throws Exception {
    List<Rec> records = randomRecords(30_000, 3, 9, 50);
    Written w = harness.write(records, 3, true, 400 << 10, null, 64 << 10);
    assertTrue(w.runs() >= 2, "overflowed into runs: " + w.runs());
    assertContiguous(w, 3);
    Map<Integer, List<String[]>> read = harness.read(w, 3, null);
    Map<Integer, List<String>> want = expected(records, 3);
    for (int p = 0; p < 3; p++) {
      List<String[]> got = read.get(p);
      for (int i = 1; i < got.size(); i++) {
        assertTrue(got.get(i - 1)[0].compareTo(got.get(i)[0]) <= 0, "merged sorted at " + i);
      }
      assertEquals(
          want.get(p).stream().sorted().toList(),
          got.stream().map(r -> r[0] + "\t" + r[1]).sorted().toList());
    }
  }

  @Test
  void writesReachTheDiskInWriteBufferSizedBlocks() throws Exception {
    List<Rec> records = randomRecords(50_000, 100, 10, 40);
    Written w = harness.write(records, 100, false, 64 << 20, null, 256 << 10);
    assertTrue(w.fileBytes() > 1 << 20);
    // Smallest possible number of writes: one per full buffer, one for the rest.
    long blocks = (w.fileBytes() + (256 << 10) - 1) / (256 << 10);
    assertEquals(blocks, w.writes().writes(), "writes of file.out");
    assertEquals(w.fileBytes(), w.writes().bytes());
    assertEquals(blocks - 1, w.writes().bucket(WriteStats.bucketOf(256 << 10)), "full blocks");
  }

  @Test
  void encryptedIntermediateDataIsNeverWrittenInClear() throws Exception {
    harness.job.setBoolean(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA, true);
    Credentials credentials = new Credentials();
    KeyGenerator keys = KeyGenerator.getInstance("HmacSHA1");
    keys.init(128);
    TokenCache.setEncryptedSpillKey(keys.generateKey().getEncoded(), credentials);
    UserGroupInformation.getCurrentUser().addCredentials(credentials);
    try {
      List<Rec> records = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        records.add(new Rec(i % 3, "secret-key-" + i, "secret-value-" + i));
      }
      for (long budget : new long[] {64 << 20, 64 << 10}) {
        Written w = harness.write(records, 3, false, budget, null, 64 << 10);
        assertEquals(budget < 1 << 20, w.runs() > 0, "the small buffer overflows");
        assertTrue(w.runs() < 5, "runs of many records, not one each: " + w.runs());
        byte[] bytes = Files.readAllBytes(Path.of(w.file().toString()));
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        assertFalse(text.contains("secret"), "file.out holds no plaintext (budget " + budget + ")");
        assertEquals(expected(records, 3), asLines(harness.read(w, 3, null)));
        for (int p = 0; p < 3; p++) {
          assertTrue(w.index().getIndex(p).rawLength > 24, "index counts the crypto padding");
        }
      }
    } finally {
      harness.job.setBoolean(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA, false);
    }
  }

  @Test
  void indexHasTheStockRecordSize() {
    assertEquals(24, MapTask.MAP_OUTPUT_INDEX_RECORD_LENGTH);
  }
}
