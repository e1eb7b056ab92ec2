package dev.levee.sponge.pig;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.pig.data.Tuple;

/**
 * Pig's sorted bag spilling into SpongeFiles: nested ORDER BY in a FOREACH with {@code
 * pig.cachedbag.sort.type=default}, and UDFs that sort a bag through the factory (the paper's Spam
 * Quantiles). Each spill is sorted; iteration merges the spills with sorted memory.
 */
final class SpongeSortedBag extends MergedRunsBag {
  private static final long serialVersionUID = 1L;

  private final transient Comparator<Tuple> order;
  private transient boolean memorySorted;

  /**
   * @param order the sort order; null sorts by {@link Tuple#compareTo}, as Pig's own sorted bag
   */
  SpongeSortedBag(Comparator<Tuple> order, BagSettings settings) {
    super(new ArrayList<>(), settings);
    this.order = order != null ? order : NaturalOrder.INSTANCE;
  }

  @Override
  String kind() {
    return "sorted";
  }

  @Override
  public boolean isSorted() {
    return true;
  }

  @Override
  public boolean isDistinct() {
    return false;
  }

  @Override
  public void add(Tuple t) {
    synchronized (mContents) {
      mSize++;
      mContents.add(t);
      memorySorted = false;
      memoryChanged();
    }
    added();
  }

  @Override
  Comparator<Tuple> order() {
    return order;
  }

  @Override
  boolean dropsDuplicates() {
    return false;
  }

  @Override
  List<Tuple> sortedMemory() {
    List<Tuple> memory = (List<Tuple>) mContents;
    if (!memorySorted) {
      memory.sort(order);
      memorySorted = true;
    }
    return memory;
  }

  @Override
  void spilled() {
    memorySorted = false;
  }
}
