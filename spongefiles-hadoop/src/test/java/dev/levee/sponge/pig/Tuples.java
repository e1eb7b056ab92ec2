package dev.levee.sponge.pig;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.Tuple;
import org.apache.pig.data.TupleFactory;

/** Test tuples and bag contents. */
final class Tuples {
  private static final TupleFactory TF = TupleFactory.getInstance();

  private Tuples() {}

  /** (key, n, payload): a few hundred bytes each, so a spill spans several chunks. */
  static Tuple tuple(String key, long n) {
    return TF.newTuple(List.of(key, n, "payload-" + key + "-" + n + "-".repeat(200)));
  }

  static List<Tuple> random(int count, int distinctValues, long seed) {
    Random r = new Random(seed);
    List<Tuple> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int v = r.nextInt(distinctValues);
      out.add(tuple("k" + (v % 7), v));
    }
    return out;
  }

  static List<Tuple> sequence(int from, int count) {
    List<Tuple> out = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      out.add(tuple("k" + (i % 5), i));
    }
    return out;
  }

  static List<Tuple> read(DataBag bag) {
    return read(bag.iterator());
  }

  static List<Tuple> read(Iterator<Tuple> it) {
    List<Tuple> out = new ArrayList<>();
    while (it.hasNext()) {
      out.add(it.next());
    }
    return out;
  }
}
