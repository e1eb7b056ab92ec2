package dev.levee.piranha.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.Test;

class PartitionBufferTest {
  private final Configuration conf = new Configuration(false);

  @Test
  void sortsEachPartitionByKeyAndCombinesEqualKeys() throws IOException {
    Map<Integer, List<Run>> runs = new HashMap<>();
    PartitionBuffer buffer =
        new PartitionBuffer(
            conf,
            Text.class,
            LongWritable.class,
            1 << 20,
            3,
            WritableComparator.get(Text.class),
            (sorted, out) -> {
              // A summing combiner over raw records.
              Text prev = null;
              long sum = 0;
              Text k = new Text();
              LongWritable v = new LongWritable();
              while (sorted.next()) {
                DataInputBuffer kb = sorted.getKey();
                k.readFields(kb);
                v.readFields(sorted.getValue());
                if (prev != null && !prev.equals(k)) {
                  out.add(prev, new LongWritable(sum));
                  sum = 0;
                }
                prev = new Text(k);
                sum += v.get();
              }
              if (prev != null) {
                out.add(prev, new LongWritable(sum));
              }
            },
            (p, run) -> runs.computeIfAbsent(p, x -> new ArrayList<>()).add(run));
    Random r = new Random(1);
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < 5000; i++) {
      String w = "w" + (int) Math.pow(200, r.nextDouble());
      buffer.add(Math.floorMod(w.hashCode(), 3), new Text(w), new LongWritable(1));
      expected.merge(w, 1L, Long::sum);
    }
    buffer.flush();
    Map<String, Long> seen = new TreeMap<>();
    for (Map.Entry<Integer, List<Run>> e : runs.entrySet()) {
      assertEquals(1, e.getValue().size());
      Run run = e.getValue().get(0);
      assertTrue(run.sorted());
      RecordCursor c = run.cursor();
      String prev = null;
      while (c.next()) {
        DataInputBuffer kb = new DataInputBuffer();
        c.key(kb);
        Text k = new Text();
        k.readFields(kb);
        DataInputBuffer vb = new DataInputBuffer();
        c.value(vb);
        LongWritable v = new LongWritable();
        v.readFields(vb);
        assertEquals(e.getKey().intValue(), Math.floorMod(k.toString().hashCode(), 3));
        if (prev != null) {
          assertTrue(prev.compareTo(k.toString()) < 0, prev + " before " + k);
        }
        prev = k.toString();
        seen.put(k.toString(), v.get());
      }
    }
    assertEquals(expected, seen);
  }
}
