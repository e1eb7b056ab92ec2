package dev.levee.it.sponge.pig;

import java.io.IOException;
import java.util.Comparator;
import org.apache.pig.EvalFunc;
import org.apache.pig.data.BagFactory;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.Tuple;

/**
 * The SpongeFiles paper's Spam Quantiles UDF: places the group's tuples, unprojected, in a sorted
 * bag made by Pig's bag factory, then traverses it in order for the score quartiles.
 */
public class SpamQuantiles extends EvalFunc<Tuple> {
  private static final Comparator<Tuple> BY_SCORE =
      (a, b) -> {
        try {
          int c = Double.compare((Double) a.get(Quantiles.SCORE), (Double) b.get(Quantiles.SCORE));
          return c != 0 ? c : Long.compare((Long) a.get(1), (Long) b.get(1));
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      };

  @Override
  public Tuple exec(Tuple input) throws IOException {
    DataBag sorted = BagFactory.getInstance().newSortedBag(BY_SCORE);
    for (Tuple t : (DataBag) input.get(0)) {
      sorted.add(t);
    }
    return Quantiles.quartiles(sorted, Quantiles.SCORE);
  }
}
