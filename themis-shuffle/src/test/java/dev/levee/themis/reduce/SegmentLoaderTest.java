package dev.levee.themis.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.themis.records.FramedRecord;
import dev.levee.themis.records.LongList;
import dev.levee.themis.records.RecordPages;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A fetched segment is parsed into chunks without any record straddling two, whatever the chunk
 * size, with records far larger than a chunk, and a segment that alone outgrows the budget hands
 * its records over in pieces; truncated or corrupt segments fail with a message saying where.
 */
class SegmentLoaderTest {

  /** Random framed records plus IFile's end marker; {@code out} gets each record's bytes. */
  private static byte[] segment(int n, long seed, int maxLen, List<byte[]> out) {
    Random random = new Random(seed);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < n; i++) {
      int kl = random.nextInt(i % 50 == 0 ? maxLen * 20 : maxLen);
      int vl = random.nextInt(i % 70 == 0 ? maxLen * 40 : maxLen);
      byte[] rec = new byte[FramedRecord.framedLength(kl, vl)];
      int pos = FramedRecord.writeHeader(rec, 0, kl, vl);
      for (int j = pos; j < rec.length; j++) {
        rec[j] = (byte) random.nextInt();
      }
      out.add(rec);
      bytes.write(rec, 0, rec.length);
    }
    bytes.write(-1);
    bytes.write(-1);
    return bytes.toByteArray();
  }

  private static List<byte[]> records(RecordPages pages, LongList pointers) {
    List<byte[]> got = new ArrayList<>();
    for (long i = 0; i < pointers.size(); i++) {
      long p = pointers.get(i);
      byte[] page = pages.pageOfPointer(p);
      int off = RecordPages.offsetOf(p);
      got.add(Arrays.copyOfRange(page, off, off + FramedRecord.length(page, off)));
    }
    return got;
  }

  private static void assertSameRecords(List<byte[]> want, List<byte[]> got) {
    assertEquals(want.size(), got.size(), "record count");
    for (int i = 0; i < want.size(); i++) {
      assertTrue(Arrays.equals(want.get(i), got.get(i)), "record " + i);
    }
  }

  @Test
  void anyChunkSizeGivesTheSameRecords() throws IOException {
    List<byte[]> want = new ArrayList<>();
    byte[] data = segment(3_000, 1, 60, want);
    for (int chunk : new int[] {16, 37, 100, 4096, 1 << 20}) {
      SegmentLoader loader = new SegmentLoader(chunk, Long.MAX_VALUE, null);
      loader.load(new ByteArrayInputStream(data), data.length, "test segment");
      assertSameRecords(want, records(loader.pages(), loader.pointers()));
      assertEquals(want.size(), loader.records());
      // No chunk beyond the limit unless it holds exactly one record larger than the limit.
      for (int i = 0; i < loader.pages().count(); i++) {
        assertTrue(loader.pages().page(i).length <= Math.max(chunk, 3_700));
      }
      if (chunk >= 4096) {
        // What a chunk wastes is the tail a cut record left behind: small next to a real chunk.
        assertTrue(
            loader.footprint() <= data.length * 1.1 + want.size() * 8L,
            "chunk " + chunk + ": footprint " + loader.footprint() + " for " + data.length);
      }
    }
  }

  @Test
  void anEmptySegmentHoldsNothing() throws IOException {
    SegmentLoader loader = new SegmentLoader(4096, Long.MAX_VALUE, null);
    loader.load(new ByteArrayInputStream(new byte[] {-1, -1}), 2, "empty");
    assertEquals(0, loader.records());
    assertEquals(0, loader.pages().count());
  }

  @Test
  void aSegmentLargerThanTheBudgetSpillsItsOwnRecordsInPieces() throws IOException {
    List<byte[]> want = new ArrayList<>();
    byte[] data = segment(5_000, 2, 80, want);
    List<byte[]> spilled = new ArrayList<>();
    int[] spills = {0};
    SegmentLoader loader =
        new SegmentLoader(
            1024,
            data.length / 5,
            (pages, pointers) -> {
              spills[0]++;
              spilled.addAll(records(pages, pointers));
              pages.clear();
              pointers.clear();
            });
    loader.load(new ByteArrayInputStream(data), data.length, "large segment");
    assertTrue(spills[0] >= 4, "spilled in pieces: " + spills[0]);
    assertTrue(loader.spilled());
    spilled.addAll(records(loader.pages(), loader.pointers()));
    assertSameRecords(want, spilled);
  }

  @Test
  void aTruncatedSegmentFailsSayingHowMuchArrived() {
    List<byte[]> want = new ArrayList<>();
    byte[] data = segment(100, 3, 30, want);
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                new SegmentLoader(64, Long.MAX_VALUE, null)
                    .load(
                        new ByteArrayInputStream(Arrays.copyOf(data, data.length / 2)),
                        data.length,
                        "map output of m_1"));
    assertTrue(e.getMessage().contains("map output of m_1 ended after"), e.getMessage());
  }

  @Test
  void aMissingEndMarkerOrBadLengthFails() {
    List<byte[]> want = new ArrayList<>();
    byte[] data = segment(50, 4, 30, want);
    byte[] noMarker = Arrays.copyOf(data, data.length - 2);
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                new SegmentLoader(4096, Long.MAX_VALUE, null)
                    .load(new ByteArrayInputStream(noMarker), noMarker.length, "s"));
    assertTrue(e.getMessage().contains("end marker"), e.getMessage());

    byte[] early = new byte[data.length + 4];
    System.arraycopy(new byte[] {-1, -1}, 0, early, 0, 2);
    System.arraycopy(data, 0, early, 2, data.length);
    IOException e2 =
        assertThrows(
            IOException.class,
            () ->
                new SegmentLoader(4096, Long.MAX_VALUE, null)
                    .load(new ByteArrayInputStream(early), data.length + 2, "s"));
    assertTrue(e2.getMessage().contains("end marker"), e2.getMessage());

    byte[] negative = {(byte) 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 1, -1, -1};
    IOException e3 =
        assertThrows(
            IOException.class,
            () ->
                new SegmentLoader(4096, Long.MAX_VALUE, null)
                    .load(new ByteArrayInputStream(negative), negative.length, "s"));
    assertTrue(e3.getMessage().contains("corrupt"), e3.getMessage());
  }
}
