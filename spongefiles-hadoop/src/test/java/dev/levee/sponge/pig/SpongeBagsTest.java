package dev.levee.sponge.pig;

import static dev.levee.sponge.pig.Tuples.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.SpongeCounters;
import dev.levee.sponge.SpongeCounters.PigBag;
import dev.levee.sponge.Tier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.LimitedSortedDataBag;
import org.apache.pig.data.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each bag type spilling into a real local sponge pool and reading its spills back. */
class SpongeBagsTest {
  private BagRig rig;
  private SpongeBagFactory factory;

  @BeforeEach
  void start() throws Exception {
    rig = new BagRig(256);
    factory = rig.factory();
  }

  @AfterEach
  void stop() throws Exception {
    rig.close();
  }

  @Test
  void defaultBagReadsSpillsBackInInsertionOrderOneSpongeFilePerSpill() {
    DataBag bag = factory.newDefaultBag();
    List<Tuple> all = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      List<Tuple> part = Tuples.sequence(round * 1000, 1000);
      part.forEach(bag::add);
      all.addAll(part);
      assertEquals(1000, bag.spill(), "tuples spilled in round " + round);
    }
    List<Tuple> tail = Tuples.sequence(3000, 400);
    tail.forEach(bag::add);
    all.addAll(tail);

    assertEquals(3, ((SpongeSpillBag) bag).spillCount());
    assertEquals(3, rig.fs.openFiles(), "one SpongeFile per spill");
    assertEquals(all, read(bag));
    assertEquals(all, read(bag), "a bag can be read again");
    assertEquals(3400, bag.size());
    assertEquals(3, rig.counter(PigBag.SPILLS.counterName()));
    assertEquals(3, rig.counter(PigBag.spillsOf("default")));
    assertEquals(3000, rig.counter(PigBag.TUPLES_SPILLED.counterName()));
    long written =
        rig.counter(PigBag.perTier(SpongeCounters.PerTier.BYTES_WRITTEN, Tier.LOCAL_MEMORY));
    assertTrue(written > 3000L * 200, "bytes in the local sponge: " + written);
    assertEquals(
        2 * written,
        rig.counter(PigBag.perTier(SpongeCounters.PerTier.BYTES_READ, Tier.LOCAL_MEMORY)),
        "both reads went through the sponge");
    assertEquals(written, rig.fs.metrics().bytesWritten(Tier.LOCAL_MEMORY));
  }

  @Test
  void spillsThatOverflowThePoolGoToLocalDiskAndReadBack() throws Exception {
    try (BagRig small = new BagRig(4)) {
      DataBag bag = small.factory().newDefaultBag();
      List<Tuple> all = Tuples.sequence(0, 4000); // ~1 MB: 4 chunks fit in memory, the rest on disk
      all.forEach(bag::add);
      bag.spill();
      assertEquals(all, read(bag));
      assertEquals(4L, small.fs.metrics().chunksWritten(Tier.LOCAL_MEMORY));
      assertTrue(small.fs.metrics().bytesWritten(Tier.LOCAL_DISK) > 0);
      assertTrue(
          small.counter(PigBag.perTier(SpongeCounters.PerTier.BYTES_WRITTEN, Tier.LOCAL_DISK)) > 0);
    }
  }

  @Test
  void defaultIteratorOpenedBeforeASpillContinuesFromTheSpill() {
    DataBag bag = factory.newDefaultBag();
    List<Tuple> all = new ArrayList<>(Tuples.sequence(0, 500));
    all.forEach(bag::add);
    Iterator<Tuple> it = bag.iterator();
    List<Tuple> seen = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      seen.add(it.next());
    }
    bag.spill(); // memory the iterator is reading goes to a SpongeFile
    // Tuples added and spilled again while the iterator is still behind: Pig's own iterator would
    // mistake the new memory for the old one here.
    List<Tuple> more = Tuples.sequence(500, 300);
    more.forEach(bag::add);
    all.addAll(more);
    bag.spill();
    List<Tuple> last = Tuples.sequence(800, 10);
    last.forEach(bag::add);
    all.addAll(last);
    seen.addAll(read(it));
    assertEquals(all, seen);
    assertNull(it.next(), "null past the end, as Pig's own iterators");
  }

  @Test
  void severalIteratorsReadTheSameSpillsAtOnce() {
    DataBag bag = factory.newDefaultBag();
    List<Tuple> all = Tuples.sequence(0, 2000);
    all.forEach(bag::add);
    bag.spill();
    Iterator<Tuple> a = bag.iterator();
    Iterator<Tuple> b = bag.iterator();
    List<Tuple> fromA = new ArrayList<>();
    List<Tuple> fromB = new ArrayList<>();
    while (a.hasNext() | b.hasNext()) {
      if (a.hasNext()) {
        fromA.add(a.next());
      }
      if (b.hasNext()) {
        fromB.add(b.next());
      }
    }
    assertEquals(all, fromA);
    assertEquals(all, fromB);
    Iterator<Tuple> abandoned = bag.iterator();
    abandoned.next();
    assertEquals(all, read(bag), "an iterator left half-way does not block the next one");
  }

  @Test
  void sortedBagMergesSortedSpillsWithMemory() {
    DataBag bag = factory.newSortedBag(null);
    List<Tuple> all = Tuples.random(3000, 100_000, 1);
    for (int i = 0; i < all.size(); i++) {
      bag.add(all.get(i));
      if (i % 700 == 699) {
        bag.spill();
      }
    }
    assertEquals(4, ((SpongeSpillBag) bag).spillCount());
    List<Tuple> expected = new ArrayList<>(all);
    expected.sort(NaturalOrder.INSTANCE);
    assertTrue(bag.isSorted());
    assertEquals(expected, read(bag));
    assertEquals(3000, bag.size());
  }

  @Test
  void sortedBagKeepsItsComparatorsOrder() {
    Comparator<Tuple> bySecondFieldDescending =
        (x, y) -> {
          try {
            return Long.compare((Long) y.get(1), (Long) x.get(1));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        };
    DataBag bag = factory.newSortedBag(bySecondFieldDescending);
    List<Tuple> all = Tuples.random(2000, 50, 2); // many equal keys
    all.forEach(bag::add);
    bag.spill();
    List<Tuple> got = read(bag);
    assertEquals(all.size(), got.size());
    for (int i = 1; i < got.size(); i++) {
      assertTrue(bySecondFieldDescending.compare(got.get(i - 1), got.get(i)) <= 0, "at " + i);
    }
    List<Tuple> sortedAll = new ArrayList<>(all);
    sortedAll.sort(NaturalOrder.INSTANCE);
    got.sort(NaturalOrder.INSTANCE);
    assertEquals(sortedAll, got, "the same tuples");
  }

  @Test
  void sortedIteratorOpenedBeforeASpillContinuesFromTheSpill() {
    DataBag bag = factory.newSortedBag(null);
    List<Tuple> all = Tuples.random(1500, 100_000, 3);
    all.subList(0, 1000).forEach(bag::add);
    bag.spill();
    all.subList(1000, 1500).forEach(bag::add);
    Iterator<Tuple> it = bag.iterator();
    List<Tuple> seen = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      seen.add(it.next());
    }
    assertEquals(500, bag.spill(), "the sorted memory under the open iterator");
    seen.addAll(read(it));
    List<Tuple> expected = new ArrayList<>(all);
    expected.sort(NaturalOrder.INSTANCE);
    assertEquals(expected, seen);
  }

  @Test
  void sortedBagWithMoreSpillsThanTheMergeFanInMergesTheOldestFirst() {
    DataBag bag = factory.newSortedBag(null);
    List<Tuple> all = Tuples.random(MergedRunsBag.MERGE_FAN_IN * 3 * 50, 1_000_000, 4);
    for (int i = 0; i < all.size(); i++) {
      bag.add(all.get(i));
      if (i % 50 == 49) {
        bag.spill();
      }
    }
    assertEquals(MergedRunsBag.MERGE_FAN_IN * 3, ((SpongeSpillBag) bag).spillCount());
    assertEquals(MergedRunsBag.MERGE_FAN_IN * 3, rig.counter(PigBag.spillsOf("sorted")));
    List<Tuple> expected = new ArrayList<>(all);
    expected.sort(NaturalOrder.INSTANCE);
    assertEquals(expected, read(bag));
    assertTrue(((SpongeSpillBag) bag).spillCount() <= MergedRunsBag.MERGE_FAN_IN);
    assertEquals(
        ((SpongeSpillBag) bag).spillCount(), rig.fs.openFiles(), "merged-away spills were deleted");
    assertEquals(expected, read(bag), "and the merged spills read back again");
    assertTrue(rig.counter(PigBag.MERGES.counterName()) >= 2);
  }

  /**
   * A merge whose SpongeFile fails part-way (the pool fills, no disk tier) is written again into a
   * local file from its first tuple: before, the retry resumed the half-read merge and the old runs
   * were deleted, losing every tuple the failed attempt had read.
   */
  @Test
  void aMergeWhoseSpongeFileFailsPartWayIsRewrittenWhole() throws Exception {
    try (BagRig small = new BagRig(4, false)) {
      DataBag bag = small.factory().newSortedBag(null);
      int spills = MergedRunsBag.MERGE_FAN_IN + 1;
      List<Tuple> all = Tuples.random(spills * 100, 1_000_000, 7);
      for (int i = 0; i < all.size(); i++) {
        bag.add(all.get(i));
        if (i % 100 == 99) {
          bag.spill();
        }
      }
      assertEquals(spills, ((SpongeSpillBag) bag).spillCount());
      List<Tuple> expected = new ArrayList<>(all);
      expected.sort(NaturalOrder.INSTANCE);
      List<Tuple> got = read(bag);
      assertEquals(expected.size(), got.size(), "every tuple survives the failed merge attempt");
      assertEquals(expected, got);
      assertTrue(small.counter(PigBag.MERGES.counterName()) >= 1, "a merge ran");
      assertTrue(((SpongeSpillBag) bag).spillCount() <= MergedRunsBag.MERGE_FAN_IN);
    }
  }

  @Test
  void distinctBagReturnsEachTupleOnceAcrossSpillsAndMemory() {
    DataBag bag = factory.newDistinctBag();
    List<Tuple> all = Tuples.random(4000, 900, 5); // every value repeated, across spills
    for (int i = 0; i < all.size(); i++) {
      bag.add(all.get(i));
      if (i % 1000 == 999) {
        bag.spill();
      }
    }
    bag.add(all.get(0)); // a duplicate of a spilled tuple, now in memory
    TreeSet<Tuple> expected = new TreeSet<>(NaturalOrder.INSTANCE);
    expected.addAll(all);
    assertTrue(bag.isDistinct());
    assertEquals(new ArrayList<>(expected), read(bag));
    assertEquals(expected.size(), bag.size());
  }

  @Test
  void distinctIteratorOpenedBeforeASpillContinuesFromTheSpill() {
    DataBag bag = factory.newDistinctBag();
    List<Tuple> all = Tuples.random(2000, 700, 6);
    all.forEach(bag::add);
    Iterator<Tuple> it = bag.iterator();
    List<Tuple> seen = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      seen.add(it.next());
    }
    assertTrue(bag.spill() > 0);
    seen.addAll(read(it));
    assertEquals(new ArrayList<>(new TreeSet<>(all)), seen);
  }

  @Test
  void iteratorsReadWithoutHasNextEndWithNullAsPigsOperatorsExpect() {
    for (DataBag bag :
        List.of(factory.newDefaultBag(), factory.newSortedBag(null), factory.newDistinctBag())) {
      List<Tuple> all = Tuples.sequence(0, 300);
      all.forEach(bag::add);
      bag.spill();
      Iterator<Tuple> it = bag.iterator();
      List<Tuple> got = new ArrayList<>();
      for (Tuple t = it.next(); t != null; t = it.next()) {
        got.add(t);
      }
      assertEquals(300, got.size(), bag.getClass().getSimpleName());
      assertNull(it.next());
    }
  }

  /** Pig's memory manager spills from its own thread while the task adds and reads. */
  @Test
  void spillsFromAnotherThreadWhileTheTaskAddsAndReadsLoseNothing() throws Exception {
    DataBag bag = factory.newDefaultBag();
    List<Tuple> all = Tuples.sequence(0, 20_000);
    java.util.concurrent.atomic.AtomicBoolean done =
        new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicLong spilled = new java.util.concurrent.atomic.AtomicLong();
    java.util.concurrent.atomic.AtomicLong calls = new java.util.concurrent.atomic.AtomicLong();
    Thread memoryManager =
        new Thread(
            () -> {
              while (!done.get()) {
                spilled.addAndGet(bag.spill());
                calls.incrementAndGet();
                Thread.onSpinWait();
              }
            });
    memoryManager.start();
    try {
      for (int i = 0; i < all.size(); i++) {
        bag.add(all.get(i));
        if (i % 2000 == 1999) {
          // Wait for one whole spill call to start after this add, so memory is spilled from the
          // other thread at least once per 2000 tuples (no timing involved).
          long mark = calls.get();
          while (calls.get() < mark + 2) {
            Thread.onSpinWait();
          }
        }
      }
      List<Tuple> firstRead = read(bag);
      List<Tuple> secondRead = read(bag);
      assertEquals(all, firstRead);
      assertEquals(all, secondRead);
    } finally {
      done.set(true);
      memoryManager.join();
    }
    assertTrue(((SpongeSpillBag) bag).spillCount() >= 10, "spilled while adding");
    assertEquals(all, read(bag));
    assertEquals(rig.counter(PigBag.TUPLES_SPILLED.counterName()), spilled.get());

    DataBag sorted = factory.newSortedBag(null);
    List<Tuple> random = Tuples.random(20_000, 1_000_000, 8);
    done.set(false);
    Thread manager2 =
        new Thread(
            () -> {
              while (!done.get()) {
                sorted.spill();
                Thread.onSpinWait();
              }
            });
    manager2.start();
    try {
      random.forEach(sorted::add);
    } finally {
      done.set(true);
      manager2.join();
    }
    List<Tuple> expected = new ArrayList<>(random);
    expected.sort(NaturalOrder.INSTANCE);
    assertEquals(expected, read(sorted));
  }

  @Test
  void emptyBagsSpillNothingAndReadEmpty() {
    for (DataBag bag :
        List.of(factory.newDefaultBag(), factory.newSortedBag(null), factory.newDistinctBag())) {
      assertEquals(0, bag.spill(), bag.getClass().getSimpleName());
      assertFalse(bag.iterator().hasNext(), bag.getClass().getSimpleName());
      assertEquals(0, bag.size());
    }
    assertEquals(0, rig.fs.metrics().filesCreated(), "no empty sponge files");
    assertEquals(0, rig.counter(PigBag.SPILLS.counterName()));
  }

  @Test
  void clearDeletesTheSpillsAndTheBagCanFillAgain() {
    DataBag bag = factory.newDefaultBag();
    Tuples.sequence(0, 1000).forEach(bag::add);
    bag.spill();
    assertEquals(1, rig.fs.openFiles());
    bag.clear();
    assertEquals(0, rig.fs.openFiles(), "clear freed the SpongeFile");
    assertEquals(0, bag.size());
    assertFalse(bag.iterator().hasNext());
    List<Tuple> again = Tuples.sequence(5, 10);
    again.forEach(bag::add);
    bag.spill();
    assertEquals(again, read(bag));
  }

  @Test
  void aDroppedBagsSpillsAreFreedByItsCleaner() {
    SpongeSpillBag bag = (SpongeSpillBag) factory.newDefaultBag();
    Tuples.sequence(0, 1000).forEach(bag::add);
    bag.spill();
    var pool = rig.fs.localPool().orElseThrow();
    assertTrue(pool.freeChunks() < pool.chunkCount());
    bag.runs.cleanNow(); // what the Cleaner runs once the bag is unreachable
    assertEquals(0, rig.fs.openFiles());
    assertEquals(pool.chunkCount(), pool.freeChunks(), "chunks back in the pool");
  }

  @Test
  void aBagPastItsMemoryBudgetSpillsItself() {
    DataBag bag = rig.factory(200_000).newDefaultBag();
    List<Tuple> all = Tuples.sequence(0, 5000);
    all.forEach(bag::add);
    assertTrue(((SpongeSpillBag) bag).spillCount() >= 2, "spills without the memory manager");
    assertTrue(bag.getMemorySize() < 400_000, "memory stays near the budget");
    assertEquals(all, read(bag));
  }

  @Test
  void limitedSortedBagsArePigsOwnAndNeverSpill() {
    assertInstanceOf(LimitedSortedDataBag.class, factory.newLimitedSortedBag(null, 10));
    assertInstanceOf(SpongeDistinctBag.class, factory.newDistinctBag(null));
  }

  @Test
  void bagsCopiedFromOtherBagsAndComparedAgreeWithPigsOwn() {
    DataBag spilled = factory.newDefaultBag();
    DataBag stock = new org.apache.pig.data.DefaultDataBag();
    for (Tuple t : Tuples.random(1000, 300, 7)) {
      spilled.add(t);
      stock.add(t);
    }
    spilled.spill();
    assertEquals(0, spilled.compareTo(stock));
    assertEquals(stock.hashCode(), spilled.hashCode());
    assertEquals(stock.toString(), spilled.toString());
  }
}
