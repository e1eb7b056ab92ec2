package dev.levee.bench.hadoop.median.pig;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.pig.data.BagFactory;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.Tuple;
import org.apache.pig.data.TupleFactory;
import org.junit.jupiter.api.Test;

/** The bench's two UDFs on bags built in memory (Pig's own factory: no cluster). */
class PigUdfsTest {
  private static final TupleFactory TUPLES = TupleFactory.getInstance();

  private static Tuple page(String url, double score, String anchor) {
    return TUPLES.newTuple(List.of(url, "d.example", "en", score, 0L, anchor));
  }

  private static DataBag bag(List<Tuple> tuples) {
    DataBag b = BagFactory.getInstance().newDefaultBag();
    tuples.forEach(b::add);
    return b;
  }

  @Test
  void topTermsCountsEveryTermExactlyMostFrequentFirstTiesByTerm() throws Exception {
    DataBag texts = BagFactory.getInstance().newDefaultBag();
    for (String text : List.of("b a", "a c", "c b", "a", "d")) {
      texts.add(TUPLES.newTuple(text));
    }
    DataBag top = new TopTerms("3").exec(TUPLES.newTuple(texts));
    List<String> got = new ArrayList<>();
    top.forEach(t -> got.add(t.toString()));
    assertEquals(List.of("(a,3)", "(b,2)", "(c,2)"), got);
  }

  @Test
  void spamQuantilesSortsTheWholeGroupWhateverItsOrder() throws Exception {
    List<Tuple> pages = new ArrayList<>();
    for (int i = 0; i <= 100; i++) {
      pages.add(page("u" + i, i / 100.0, "x"));
    }
    Collections.shuffle(pages, new Random(7));
    Tuple q = new SpamQuantiles().exec(TUPLES.newTuple(bag(pages)));
    assertEquals(101L, q.get(0));
    for (int step = 0; step <= SpamQuantiles.STEPS; step++) {
      assertEquals(step / 10.0, (Double) q.get(1 + step), 1e-9, "decile " + step);
    }
    Collections.reverse(pages);
    Tuple reversed = new SpamQuantiles().exec(TUPLES.newTuple(bag(pages)));
    assertEquals(q, reversed);
  }

  @Test
  void anEmptyGroupHasNoQuantiles() throws Exception {
    Tuple q = new SpamQuantiles().exec(TUPLES.newTuple(bag(List.of())));
    assertEquals(TUPLES.newTuple(List.of(0L)), q);
  }
}
