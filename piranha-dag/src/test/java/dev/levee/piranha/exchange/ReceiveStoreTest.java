package dev.levee.piranha.exchange;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.piranha.AbortSignal;
import dev.levee.piranha.Deadline;
import dev.levee.piranha.PiranhaAbortedException;
import dev.levee.piranha.dag.TaskId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReceiveStoreTest {
  private static final TaskId A = new TaskId(0, 0);
  private static final TaskId B = new TaskId(0, 1);
  private static final TaskId C = new TaskId(0, 2);

  @TempDir Path dir;

  @Test
  void runsOverTheBudgetGoToDiskByteForByteAndMergeInOrder() throws Exception {
    List<Run> sent = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      sent.add(sortedRun(2_000, i));
    }
    long budget = sent.get(0).bytes() * 2 + 100; // two runs fit in memory
    Path spill = dir.resolve("spill");
    try (ReceiveStore store = new ReceiveStore(budget, spill, false, Set.of(A, B, C))) {
      List<TaskId> parents = List.of(A, B, C);
      for (int p = 0; p < 3; p++) {
        ReceiveStore.Incoming in = store.open(parents.get(p));
        for (int k = 0; k < 2; k++) {
          Run r = sent.get(p * 2 + k);
          in.startRun(true);
          byte[] d = r.data();
          // In frame-sized pieces, as the server appends them.
          for (int off = 0; off < r.bytes(); off += 1000) {
            in.append(d, off, (int) Math.min(1000, r.bytes() - off));
          }
          in.endRun(r.records(), r.bytes());
        }
        in.end(4_000, sent.get(p * 2).bytes() + sent.get(p * 2 + 1).bytes(), 2);
      }
      store.awaitComplete(Deadline.in(1_000, "test"), new AbortSignal(), () -> {});

      assertEquals(4, store.spills(), "runs 3..6 did not fit");
      assertTrue(store.memoryUsed() <= budget);
      List<Path> files;
      try (Stream<Path> s = Files.list(spill)) {
        files = s.sorted().toList();
      }
      assertEquals(4, files.size());
      long onDisk = 0;
      List<Run> held = store.runs();
      for (int i = 0; i < held.size(); i++) {
        Run h = held.get(i);
        if (!h.inMemory()) {
          byte[] disk = Files.readAllBytes(h.file());
          assertArrayEquals(
              Arrays.copyOf(sent.get(i).data(), (int) sent.get(i).bytes()),
              disk,
              "spilled run " + i + " holds exactly the bytes sent");
          onDisk += disk.length;
        }
      }
      assertEquals(store.spilledBytes(), onDisk);

      // The merge of memory and disk runs is the sorted union.
      List<String> merged = new ArrayList<>();
      try (RunMerger m = RunMerger.sorted(held, WritableComparator.get(Text.class))) {
        Text k = new Text();
        while (m.next()) {
          DataInputBuffer kb = m.getKey();
          k.readFields(kb);
          merged.add(k.toString());
        }
      }
      List<String> oracle = new ArrayList<>();
      for (Run r : sent) {
        oracle.addAll(keys(r));
      }
      oracle.sort(null);
      assertEquals(oracle, merged);
    }
    try (Stream<Path> s = Files.list(spill)) {
      assertEquals(0, s.count(), "closing the store deletes its spill files");
    }
  }

  @Test
  void checkpointingPersistsEveryRun() throws Exception {
    try (ReceiveStore store = new ReceiveStore(1 << 30, dir.resolve("cp"), true, Set.of(A))) {
      Run r = sortedRun(100, 1);
      ReceiveStore.Incoming in = store.open(A);
      in.startRun(true);
      in.append(r.data(), 0, (int) r.bytes());
      in.endRun(r.records(), r.bytes());
      in.end(r.records(), r.bytes(), 1);
      assertEquals(1, store.spills());
      assertFalse(store.runs().get(0).inMemory());
      assertEquals(r.bytes(), Files.size(store.runs().get(0).file()));
    }
  }

  @Test
  void wrongCountsAndUnknownParentsAreRefused() throws Exception {
    try (ReceiveStore store = new ReceiveStore(1 << 20, dir, false, Set.of(A, B))) {
      assertThrows(IllegalStateException.class, () -> store.open(C));
      ReceiveStore.Incoming in = store.open(A);
      Run r = sortedRun(10, 2);
      in.startRun(true);
      in.append(r.data(), 0, (int) r.bytes());
      IOException bytes =
          assertThrows(IOException.class, () -> in.endRun(r.records(), r.bytes() + 1));
      assertTrue(bytes.getMessage().contains("declared"), bytes.getMessage());
      ReceiveStore.Incoming in2 = store.open(B);
      in2.startRun(true);
      in2.append(r.data(), 0, (int) r.bytes());
      IOException records =
          assertThrows(IOException.class, () -> in2.endRun(r.records() + 5, r.bytes()));
      assertTrue(records.getMessage().contains("records"), records.getMessage());
    }
  }

  @Test
  void waitingForParentsIsBounded() throws Exception {
    try (ReceiveStore store = new ReceiveStore(1 << 20, dir, false, Set.of(A, B))) {
      PiranhaAbortedException e =
          assertThrows(
              PiranhaAbortedException.class,
              () ->
                  store.awaitComplete(
                      Deadline.in(300, "parents of t1-0"), new AbortSignal(), () -> {}));
      assertTrue(e.getMessage().contains("within 300 ms"), e.getMessage());
      assertTrue(e.getMessage().contains("t0-0"), e.getMessage());
    }
  }

  static Run sortedRun(int records, long seed) throws IOException {
    Random r = new Random(seed);
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < records; i++) {
      keys.add(String.format("key-%08d", r.nextInt(1_000_000)));
    }
    keys.sort(null);
    RunBuilder b = new RunBuilder(new Configuration(false), Text.class, LongWritable.class);
    for (String k : keys) {
      b.add(new Text(k), new LongWritable(seed));
    }
    return b.build(true);
  }

  static List<String> keys(Run r) throws IOException {
    List<String> out = new ArrayList<>();
    try (RecordCursor c = r.cursor()) {
      DataInputBuffer kb = new DataInputBuffer();
      Text t = new Text();
      while (c.next()) {
        c.key(kb);
        t.readFields(kb);
        out.add(t.toString());
      }
    }
    return out;
  }
}
