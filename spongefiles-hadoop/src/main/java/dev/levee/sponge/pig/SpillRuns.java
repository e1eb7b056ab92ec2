package dev.levee.sponge.pig;

import java.lang.ref.Cleaner;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The spills of one bag, oldest first. Pig never closes or frees a bag: it drops it. Stock bags
 * delete their spill files from a finalizer; here a {@link Cleaner} deletes the runs once the bag
 * is unreachable, so a task that builds and drops thousands of spilled bags (one per skewed group)
 * hands their sponge chunks back instead of filling the node's pool until it exits.
 */
final class SpillRuns {
  private static final Cleaner CLEANER = Cleaner.create();

  /** Shared by the bag and its cleaning action; must not reference the bag. */
  private final List<SpillRun> runs = new CopyOnWriteArrayList<>();

  /** The bag, until its first spill registers it with the cleaner (most bags never spill). */
  private Object owner;

  private Cleaner.Cleanable cleanable;

  SpillRuns(Object bag) {
    this.owner = bag;
  }

  int size() {
    return runs.size();
  }

  SpillRun get(int i) {
    return runs.get(i);
  }

  /** Called with the bag's lock held. */
  void add(SpillRun run) {
    if (cleanable == null) {
      List<SpillRun> list = runs;
      cleanable = CLEANER.register(owner, () -> deleteAll(list));
      owner = null;
    }
    runs.add(run);
  }

  /** Replaces the first {@code n} runs by {@code merged}, which holds their tuples. */
  void replaceFirst(int n, SpillRun merged) {
    List<SpillRun> old = List.copyOf(runs.subList(0, n));
    runs.subList(0, n).clear();
    runs.add(0, merged);
    deleteAll(old);
  }

  /** Deletes every run (the bag was cleared); the bag may spill again afterwards. */
  void clear() {
    List<SpillRun> old = List.copyOf(runs);
    runs.clear();
    deleteAll(old);
  }

  /** For tests: what the cleaner does once the bag is unreachable. */
  void cleanNow() {
    if (cleanable != null) {
      cleanable.clean();
    }
  }

  private static void deleteAll(List<SpillRun> list) {
    for (SpillRun r : list) {
      r.delete();
    }
  }
}
