package dev.levee.piranha.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.Test;

class RunMergerTest {
  @Test
  void mergeEqualsSortingEverything() throws IOException {
    List<Run> runs = new ArrayList<>();
    List<String> oracle = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      Run r = ReceiveStoreTest.sortedRun(i * 37, i);
      runs.add(r);
      oracle.addAll(ReceiveStoreTest.keys(r));
    }
    runs.add(ReceiveStoreTest.sortedRun(0, 99)); // an empty run
    oracle.sort(null);
    List<String> merged = new ArrayList<>();
    try (RunMerger m = RunMerger.sorted(runs, WritableComparator.get(Text.class))) {
      Text t = new Text();
      while (m.next()) {
        t.readFields(m.getKey());
        merged.add(t.toString());
      }
      assertEquals(oracle.size(), m.records());
    }
    assertEquals(oracle, merged);
  }

  @Test
  void concatenationKeepsRunOrder() throws IOException {
    Run a = ReceiveStoreTest.sortedRun(10, 1);
    Run b = ReceiveStoreTest.sortedRun(10, 2);
    List<String> expected = new ArrayList<>(ReceiveStoreTest.keys(a));
    expected.addAll(ReceiveStoreTest.keys(b));
    List<String> got = new ArrayList<>();
    try (RunMerger m = RunMerger.concatenated(List.of(a, b))) {
      Text t = new Text();
      while (m.next()) {
        t.readFields(m.getKey());
        got.add(t.toString());
      }
    }
    assertEquals(expected, got);
  }

  @Test
  void unsortedRunsCannotBeMergedByKey() throws IOException {
    RunBuilder b = new RunBuilder();
    Run unsorted = b.build(false);
    assertThrows(
        IllegalArgumentException.class,
        () -> RunMerger.sorted(List.of(unsorted), WritableComparator.get(Text.class)));
  }
}
