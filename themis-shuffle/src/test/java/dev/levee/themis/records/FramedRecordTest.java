package dev.levee.themis.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.WritableUtils;
import org.junit.jupiter.api.Test;

class FramedRecordTest {
  @Test
  void vintEncodingIsHadoops() throws Exception {
    Random random = new Random(1);
    int[] edge = {0, 1, -1, 127, 128, -112, -113, 255, 256, 65535, 65536, Integer.MAX_VALUE};
    for (int i = 0; i < 20_000; i++) {
      int v = i < edge.length ? edge[i] : random.nextInt() >>> random.nextInt(32);
      DataOutputBuffer expected = new DataOutputBuffer();
      WritableUtils.writeVInt(expected, v);
      byte[] page = new byte[16];
      int end = FramedRecord.writeVInt(page, 3, v);
      assertEquals(expected.getLength(), end - 3, "size of " + v);
      assertArrayEquals(
          Arrays.copyOf(expected.getData(), expected.getLength()),
          Arrays.copyOfRange(page, 3, end),
          "bytes of " + v);
      assertEquals(v, FramedRecord.readVInt(page, 3));
    }
  }

  @Test
  void positionsOfAFramedRecord() {
    byte[] page = new byte[1000];
    int pos = FramedRecord.writeHeader(page, 7, 300, 5);
    // 300 takes a 3-byte vint, 5 a 1-byte one.
    assertEquals(7 + 3 + 1, pos);
    assertEquals(300, FramedRecord.keyLength(page, 7));
    assertEquals(5, FramedRecord.valueLength(page, 7));
    assertEquals(11, FramedRecord.keyStart(page, 7));
    assertEquals(311, FramedRecord.valueStart(page, 7));
    assertEquals(4 + 300 + 5, FramedRecord.length(page, 7));
    assertEquals(4 + 300 + 5, FramedRecord.framedLength(300, 5));
  }

  @Test
  void longListGrowsAcrossChunksAndSwaps() {
    LongList list = new LongList();
    int n = 3 * (1 << 16) + 17;
    for (int i = 0; i < n; i++) {
      list.add(i * 3L);
    }
    assertEquals(n, list.size());
    list.swap(0, n - 1);
    assertEquals((n - 1) * 3L, list.get(0));
    assertEquals(0, list.get(n - 1));
    assertEquals(70_000 * 3L, list.get(70_000));
    LongList zeros = LongList.ofSize(n);
    assertEquals(n, zeros.size());
    zeros.set(n - 1, 5);
    assertEquals(5, zeros.get(n - 1));
  }
}
