package dev.levee.bench.hadoop.median.pig;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.pig.EvalFunc;
import org.apache.pig.data.BagFactory;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.Tuple;
import org.apache.pig.data.TupleFactory;

/**
 * Spam Quantiles' UDF, as hastily written as the paper's: it is handed the whole group, every
 * column (nothing projected), copies it into a sorted bag from Pig's bag factory, and walks that
 * bag in order for the spam-score deciles. The sorted bag holds the full tuples, so a large group
 * spills it: into local files with Pig's factory, into SpongeFiles with Levee's.
 *
 * <p>Returns (pages, min, 10th, ..., 90th percentile, max) by nearest rank.
 */
public class SpamQuantiles extends EvalFunc<Tuple> {
  static final int URL = 0;
  static final int SPAM_SCORE = 3;
  static final int STEPS = 10;

  /** Score, then url (unique): a total order, so equal scores never make two arms differ. */
  private static final Comparator<Tuple> BY_SCORE =
      (a, b) -> {
        try {
          int c = Double.compare((Double) a.get(SPAM_SCORE), (Double) b.get(SPAM_SCORE));
          return c != 0 ? c : ((String) a.get(URL)).compareTo((String) b.get(URL));
        } catch (IOException e) {
          throw new IllegalStateException("cannot read a page tuple", e);
        }
      };

  @Override
  public Tuple exec(Tuple input) throws IOException {
    DataBag sorted = BagFactory.getInstance().newSortedBag(BY_SCORE);
    for (Tuple page : (DataBag) input.get(0)) {
      if (page.get(SPAM_SCORE) != null && page.get(URL) != null) {
        sorted.add(page);
      }
    }
    long n = sorted.size();
    List<Object> out = new ArrayList<>();
    out.add(n);
    if (n == 0) {
      return TupleFactory.getInstance().newTuple(out);
    }
    int step = 0;
    long rank = 0;
    for (Tuple page : sorted) {
      while (step <= STEPS && rank == (n - 1) * step / STEPS) {
        out.add(page.get(SPAM_SCORE));
        step++;
      }
      rank++;
    }
    if (rank != n) {
      throw new IOException("the sorted bag yielded " + rank + " pages, its size is " + n);
    }
    return TupleFactory.getInstance().newTuple(out);
  }
}
