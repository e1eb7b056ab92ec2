package dev.levee.it.sponge.pig;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.pig.EvalFunc;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.Tuple;
import org.apache.pig.data.TupleFactory;

/**
 * A holistic UDF over a bag already in score order (a nested ORDER BY): reads it twice, once to
 * count and once to pick the quartiles of the {@code score} field (index {@value #SCORE}).
 */
public class Quantiles extends EvalFunc<Tuple> {
  static final int SCORE = 2;

  @Override
  public Tuple exec(Tuple input) throws IOException {
    return quartiles((DataBag) input.get(0), SCORE);
  }

  /** (min, q1, median, q3, max) of field {@code field} of a bag in that field's order. */
  static Tuple quartiles(DataBag sorted, int field) throws IOException {
    long n = 0;
    for (Iterator<Tuple> i = sorted.iterator(); i.hasNext(); i.next()) {
      n++;
    }
    List<Object> out = new ArrayList<>();
    if (n == 0) {
      return TupleFactory.getInstance().newTuple(out);
    }
    long[] at = {0, (n - 1) / 4, (n - 1) / 2, 3 * (n - 1) / 4, n - 1};
    int next = 0;
    long pos = 0;
    Double previous = null;
    for (Tuple t : sorted) {
      Double score = (Double) t.get(field);
      if (previous != null && score < previous) {
        throw new IOException("bag not in score order at " + pos + ": " + previous + " > " + score);
      }
      previous = score;
      while (next < at.length && at[next] == pos) {
        out.add(score);
        next++;
      }
      pos++;
    }
    if (pos != n) {
      throw new IOException("second pass read " + pos + " tuples, the first " + n);
    }
    return TupleFactory.getInstance().newTuple(out);
  }
}
