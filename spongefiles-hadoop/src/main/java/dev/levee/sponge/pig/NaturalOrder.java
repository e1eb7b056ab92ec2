package dev.levee.sponge.pig;

import java.util.Comparator;
import org.apache.pig.data.Tuple;

/** Tuples in their own order ({@link Tuple#compareTo}), the default of Pig's sorted bags. */
final class NaturalOrder implements Comparator<Tuple> {
  static final NaturalOrder INSTANCE = new NaturalOrder();

  private NaturalOrder() {}

  @Override
  @SuppressWarnings("unchecked")
  public int compare(Tuple a, Tuple b) {
    return a.compareTo(b);
  }
}
