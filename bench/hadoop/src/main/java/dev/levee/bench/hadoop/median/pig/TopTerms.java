package dev.levee.bench.hadoop.median.pig;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pig.EvalFunc;
import org.apache.pig.data.BagFactory;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.Tuple;
import org.apache.pig.data.TupleFactory;

/**
 * Frequent Anchortext's holistic UDF: the k most frequent terms in a group's anchor texts, as a bag
 * of (term, count), most frequent first, ties by term.
 *
 * <p>The paper's TopK was a one-pass approximate counter. This one counts every term exactly: an
 * approximate answer depends on the order the bag yields its tuples, which differs between a bag
 * read from memory and one read back from spills, and the bench checks that both arms give the same
 * output. It is just as holistic: neither algebraic nor accumulative, so Pig materializes the whole
 * group's bag before calling it.
 */
public class TopTerms extends EvalFunc<DataBag> {
  private static final Comparator<Map.Entry<String, Long>> MOST_FREQUENT_FIRST =
      Map.Entry.<String, Long>comparingByValue()
          .reversed()
          .thenComparing(Map.Entry.comparingByKey());

  private final int k;

  public TopTerms() {
    this("10");
  }

  /** For {@code DEFINE TopTerms dev...TopTerms('k')}. */
  public TopTerms(String k) {
    this.k = Integer.parseInt(k);
  }

  @Override
  public DataBag exec(Tuple input) throws IOException {
    DataBag texts = (DataBag) input.get(0);
    Map<String, Long> counts = new HashMap<>();
    for (Tuple t : texts) {
      Object text = t.get(0);
      if (text == null) {
        continue;
      }
      for (String term : text.toString().split(" ")) {
        if (!term.isEmpty()) {
          counts.merge(term, 1L, Long::sum);
        }
      }
    }
    List<Map.Entry<String, Long>> ranked = new ArrayList<>(counts.entrySet());
    ranked.sort(MOST_FREQUENT_FIRST);
    DataBag top = BagFactory.getInstance().newDefaultBag();
    for (Map.Entry<String, Long> e : ranked.subList(0, Math.min(k, ranked.size()))) {
      top.add(TupleFactory.getInstance().newTuple(List.of(e.getKey(), e.getValue())));
    }
    return top;
  }
}
