package dev.levee.themis.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.DoubleWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.util.QuickSort;
import org.junit.jupiter.api.Test;

/**
 * The in-memory sort of record pointers gives exactly the order of a reference sort of the
 * deserialized keys, for the key types and comparators jobs use; the k-way merge of sorted runs
 * gives the order of one sort of everything.
 */
class SortAndMergeTest {

  @Test
  void textKeysSortAsTheReference() throws IOException {
    Random random = new Random(11);
    List<Writable> keys = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      // Short keys with many duplicates and shared prefixes, some long ones, some empty.
      int len = i % 97 == 0 ? 0 : i % 13 == 0 ? 200 + random.nextInt(300) : 1 + random.nextInt(6);
      StringBuilder s = new StringBuilder();
      for (int c = 0; c < len; c++) {
        s.append((char) ('a' + random.nextInt(i % 3 == 0 ? 2 : 26)));
      }
      keys.add(new Text(s.toString()));
    }
    checkSort(keys, WritableComparator.get(Text.class), Comparator.comparing(Object::toString));
  }

  @Test
  void intKeysSortNumerically() throws IOException {
    Random random = new Random(12);
    List<Writable> keys = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      keys.add(new IntWritable(random.nextInt(2_000) - 1_000));
    }
    checkSort(
        keys,
        WritableComparator.get(IntWritable.class),
        Comparator.comparingInt(w -> ((IntWritable) w).get()));
  }

  @Test
  void aCustomDescendingComparatorIsHonoured() throws IOException {
    Random random = new Random(13);
    List<Writable> keys = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      keys.add(new IntWritable(random.nextInt(100)));
    }
    RawComparator<?> descending =
        new WritableComparator(IntWritable.class) {
          @Override
          public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
            return -Integer.compare(readInt(b1, s1), readInt(b2, s2));
          }
        };
    checkSort(keys, descending, Comparator.comparingInt(w -> -((IntWritable) w).get()));
  }

  @Test
  void bytesWritableKeysSortByContentThenLength() throws IOException {
    Random random = new Random(14);
    List<Writable> keys = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      byte[] b = new byte[random.nextInt(5)];
      random.nextBytes(b);
      keys.add(new BytesWritable(b));
    }
    checkSort(
        keys,
        WritableComparator.get(BytesWritable.class),
        (a, b) -> ((BytesWritable) a).compareTo((BytesWritable) b));
  }

  @Test
  void textKeysPastTheirPrefixAndWithHighBytesSortAsTheReference() throws IOException {
    Random random = new Random(16);
    List<Writable> keys = new ArrayList<>();
    String[] stems = {"", "prefix12", "prefix1", "pr\u00e9fix", "\u00ff\u00ff", "\u4e2d\u6587"};
    for (int i = 0; i < 20_000; i++) {
      // Stems of up to eight bytes and more, then a tail: many keys share all eight prefix bytes
      // and differ after them; UTF-8 bytes >= 0x80 would sort wrongly if compared signed.
      StringBuilder s = new StringBuilder(stems[random.nextInt(stems.length)]);
      int tail = random.nextInt(4);
      for (int c = 0; c < tail; c++) {
        s.append(
            (char) (random.nextBoolean() ? 'a' + random.nextInt(3) : 0xe0 + random.nextInt(3)));
      }
      keys.add(new Text(s.toString()));
    }
    // Text orders by the UTF-8 bytes, unsigned: the reference compares those bytes.
    checkSort(
        keys,
        WritableComparator.get(Text.class),
        (a, b) -> {
          Text x = (Text) a;
          Text y = (Text) b;
          return WritableComparator.compareBytes(
              x.getBytes(), 0, x.getLength(), y.getBytes(), 0, y.getLength());
        });
  }

  @Test
  void longKeysSortNumericallyAcrossTheSign() throws IOException {
    Random random = new Random(17);
    List<Writable> keys = new ArrayList<>();
    long[] edges = {
      Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE
    };
    for (int i = 0; i < 20_000; i++) {
      keys.add(
          new LongWritable(
              i % 10 == 0
                  ? edges[random.nextInt(edges.length)]
                  : i % 2 == 0 ? random.nextLong() : random.nextInt(200) - 100));
    }
    checkSort(
        keys,
        WritableComparator.get(LongWritable.class),
        Comparator.comparingLong(w -> ((LongWritable) w).get()));
  }

  @Test
  void bytesWritableKeysLongerThanThePrefixSortByContentThenLength() throws IOException {
    Random random = new Random(18);
    List<Writable> keys = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      byte[] b = new byte[6 + random.nextInt(8)];
      for (int j = 0; j < b.length; j++) {
        b[j] = (byte) (j < 7 ? 0x7f + (j % 2) : random.nextInt(3) - 1);
      }
      keys.add(new BytesWritable(b));
    }
    checkSort(
        keys,
        WritableComparator.get(BytesWritable.class),
        (a, b) -> ((BytesWritable) a).compareTo((BytesWritable) b));
  }

  @Test
  void prefixesAreUsedOnlyWhenTheHeapHasRoomForThem() throws IOException {
    List<Writable> keys = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      keys.add(new Text("k" + (i * 7919 % 1_000)));
    }
    PointerSorter sorter = new PointerSorter(new QuickSort(), WritableComparator.get(Text.class));
    Stored stored = store(keys);
    assertFalse(sorter.sort(stored.pages, stored.pointers, 0, 1_000, null, 8 * 1_000 - 1));
    assertTrue(sorter.sort(stored.pages, stored.pointers, 0, 1_000, null, 8 * 1_000));
  }

  @Test
  void onlyHadoopsOwnComparatorsGetAPrefix() {
    assertNotNull(KeyPrefix.forComparator(WritableComparator.get(Text.class)));
    assertNotNull(KeyPrefix.forComparator(WritableComparator.get(BytesWritable.class)));
    assertNotNull(KeyPrefix.forComparator(WritableComparator.get(LongWritable.class)));
    assertNotNull(KeyPrefix.forComparator(WritableComparator.get(IntWritable.class)));
    // A subclass may reverse the order; a comparator of another type says nothing bytewise.
    assertNull(KeyPrefix.forComparator(new LongWritable.DecreasingComparator()));
    assertNull(KeyPrefix.forComparator(new Text.Comparator() {}));
    assertNull(KeyPrefix.forComparator(WritableComparator.get(DoubleWritable.class)));
    assertNull(KeyPrefix.forComparator(null));
  }

  @Test
  void mergingSortedRunsGivesOneSortedStream() throws IOException {
    Random random = new Random(15);
    RawComparator<?> cmp = WritableComparator.get(IntWritable.class);
    List<RecordCursor> cursors = new ArrayList<>();
    List<Integer> all = new ArrayList<>();
    for (int run = 0; run < 7; run++) {
      List<Writable> keys = new ArrayList<>();
      int n = run == 3 ? 0 : 1 + random.nextInt(3_000);
      for (int i = 0; i < n; i++) {
        int k = random.nextInt(500);
        keys.add(new IntWritable(k));
        all.add(k);
      }
      Stored stored = store(keys);
      if (keys.size() > 1) {
        new QuickSort()
            .sort(new PointerSortable(stored.pointers, 0, stored.pages, cmp), 0, keys.size());
      }
      cursors.add(
          RecordCursor.of(new PointerIterator(stored.pointers, 0, keys.size(), stored.pages)));
    }
    all.sort(Integer::compare);
    MergingIterator merged = new MergingIterator(cursors, cmp, all.size());
    List<Integer> out = new ArrayList<>();
    IntWritable k = new IntWritable();
    while (merged.next()) {
      DataInputBuffer key = merged.getKey();
      k.readFields(key);
      out.add(k.get());
    }
    assertEquals(all, out);
    assertEquals(1f, merged.getProgress().getProgress());
  }

  private record Stored(RecordPages pages, LongList pointers) {}

  /** Frames {@code keys} (value: the key's index) into several small pages. */
  private static Stored store(List<Writable> keys) throws IOException {
    RecordPages pages = new RecordPages();
    LongList pointers = new LongList();
    byte[] page = new byte[4096];
    int pageIndex = pages.add(page);
    int fill = 0;
    DataOutputBuffer buf = new DataOutputBuffer();
    for (int i = 0; i < keys.size(); i++) {
      buf.reset();
      keys.get(i).write(buf);
      int kl = buf.getLength();
      new IntWritable(i).write(buf);
      int vl = buf.getLength() - kl;
      int framed = FramedRecord.framedLength(kl, vl);
      if (fill + framed > page.length) {
        page = new byte[Math.max(4096, framed)];
        pageIndex = pages.add(page);
        fill = 0;
      }
      int pos = FramedRecord.writeHeader(page, fill, kl, vl);
      System.arraycopy(buf.getData(), 0, page, pos, kl + vl);
      pointers.add(RecordPages.pointer(pageIndex, fill));
      fill += framed;
    }
    return new Stored(pages, pointers);
  }

  /**
   * Sorts with the key prefix the comparator allows, and again with none; both as the reference.
   */
  private static void checkSort(
      List<Writable> keys, RawComparator<?> comparator, Comparator<Writable> reference)
      throws IOException {
    checkSort(keys, new PointerSorter(new QuickSort(), comparator), reference);
    checkSort(keys, new PointerSorter(new QuickSort(), comparator, null), reference);
  }

  private static void checkSort(
      List<Writable> keys, PointerSorter sorter, Comparator<Writable> reference)
      throws IOException {
    Stored stored = store(keys);
    sorter.sort(stored.pages, stored.pointers, 0, keys.size(), null, Long.MAX_VALUE);
    // Sort indexes by the reference comparator; equal keys may come in any order, so compare keys.
    Integer[] order = new Integer[keys.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> reference.compare(keys.get(a), keys.get(b)));
    PointerIterator it = new PointerIterator(stored.pointers, 0, keys.size(), stored.pages);
    IntWritable index = new IntWritable();
    int i = 0;
    java.util.Set<Integer> seen = new java.util.HashSet<>();
    while (it.next()) {
      index.readFields(it.getValue());
      assertEquals(
          0,
          reference.compare(keys.get(index.get()), keys.get(order[i])),
          "position " + i + ": " + keys.get(index.get()) + " vs " + keys.get(order[i]));
      seen.add(index.get());
      i++;
    }
    assertEquals(keys.size(), i);
    assertEquals(keys.size(), seen.size(), "every record exactly once");
  }
}
