package dev.levee.themis.records;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
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

  private static void checkSort(
      List<Writable> keys, RawComparator<?> comparator, Comparator<Writable> reference)
      throws IOException {
    Stored stored = store(keys);
    new QuickSort()
        .sort(new PointerSortable(stored.pointers, 0, stored.pages, comparator), 0, keys.size());
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
