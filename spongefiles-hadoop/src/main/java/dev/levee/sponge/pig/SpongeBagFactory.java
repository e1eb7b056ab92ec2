package dev.levee.sponge.pig;

import dev.levee.sponge.config.SpongeConf;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.PigConfiguration;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.PigMapReduce;
import org.apache.pig.data.BagFactory;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.LimitedSortedDataBag;
import org.apache.pig.data.Tuple;

/**
 * A Pig {@link BagFactory} whose bags spill into SpongeFiles, one SpongeFile per spill, as the
 * SpongeFiles paper integrated Pig's DataBags (Elmeleegy, Olston and Reed, "SpongeFiles: Mitigating
 * Data Skew in MapReduce Using Distributed Memory", SIGMOD 2014). Pig instantiates it only from JVM
 * system properties, set in every task JVM:
 *
 * <pre>
 * -Dpig.data.bag.factory.name=dev.levee.sponge.pig.SpongeBagFactory
 * -Dpig.data.bag.factory.jar=file:///path/on/every/node/spongefiles-hadoop.jar
 * </pre>
 *
 * Default, sorted and distinct bags spill to SpongeFiles when Pig's memory manager asks them to and
 * when their in-memory part passes {@code pig.cachedbag.memusage} of the heap (as Pig's internal
 * cached bags do). Limited sorted bags (ORDER ... LIMIT in a FOREACH) hold at most their limit and
 * never spill: they are Pig's own. It extends {@link BagFactory} directly, not Pig's {@code
 * DefaultBagFactory}, so that nothing needs package-private access to {@code org.apache.pig.data}:
 * Pig may load it through its own class loader from the jar URL, where such access fails.
 */
public class SpongeBagFactory extends BagFactory {
  /** Pig's default share of the heap for its cached bags. */
  private static final float DEFAULT_CACHED_BAG_MEMUSAGE = 0.2f;

  private volatile BagSettings settings;

  /** Called by Pig's {@link BagFactory#getInstance()}. */
  public SpongeBagFactory() {
    super();
  }

  /** For tests: bags that spill into {@code space} and spill themselves past {@code budget}. */
  SpongeBagFactory(BagSettings settings) {
    super();
    this.settings = settings;
  }

  @Override
  public DataBag newDefaultBag() {
    return new SpongeDefaultBag(settings());
  }

  @Override
  public DataBag newDefaultBag(List<Tuple> listOfTuples) {
    return new SpongeDefaultBag(listOfTuples, settings());
  }

  @Override
  public DataBag newLimitedSortedBag(Comparator<Tuple> comp, long limit) {
    return new LimitedSortedDataBag(comp, limit);
  }

  @Override
  public DataBag newSortedBag(Comparator<Tuple> comp) {
    return new SpongeSortedBag(comp, settings());
  }

  @Override
  public DataBag newDistinctBag() {
    return new SpongeDistinctBag(settings());
  }

  @Override
  public DataBag newDistinctBag(Set<Tuple> tuples) {
    return tuples == null
        ? new SpongeDistinctBag(settings())
        : new SpongeDistinctBag(tuples, settings());
  }

  /**
   * Read once the task's configuration is there (bags are made in map and reduce code, after Pig
   * set it up); Pig's front end gets the defaults. This is also where an invalid {@code
   * levee.sponge.*} value fails the task, naming the key and what is allowed: the first spill may
   * come from Pig's memory manager thread, where an exception would be lost.
   *
   * @throws IllegalArgumentException for an invalid {@code levee.sponge.*} value
   */
  private BagSettings settings() {
    BagSettings s = settings;
    if (s == null) {
      Configuration conf = PigMapReduce.sJobConf;
      if (conf != null) {
        SpongeConf.validate(conf);
      }
      s = new BagSettings(PigTaskSponge.TASK::space, memoryBudget(conf));
      if (conf != null) {
        settings = s;
      }
    }
    return s;
  }

  /** One bag's share of the heap: {@code pig.cachedbag.memusage}, as Pig's cached bags use it. */
  static long memoryBudget(Configuration conf) {
    float share =
        conf == null
            ? DEFAULT_CACHED_BAG_MEMUSAGE
            : conf.getFloat(PigConfiguration.PIG_CACHEDBAG_MEMUSAGE, DEFAULT_CACHED_BAG_MEMUSAGE);
    return (long) (Runtime.getRuntime().maxMemory() * (double) share);
  }
}
