package dev.levee.piranha.dag;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.task.JobContextImpl;

/**
 * One half of a MapReduce job inside a stage: its map side or its reduce side, configured exactly
 * as a MapReduce job is, with the keys {@link Job}'s setters write (mapper, reducer, combiner,
 * partitioner, comparators, key and value classes, input and output formats). A stage runs one
 * step, or several after a redundant stage was fused into it.
 *
 * <p>The settings are an overlay: the keys this step sets on top of the run's configuration.
 */
public final class Step {

  /** Which half of a MapReduce job this step is. */
  public enum Kind {
    /** Runs a {@link org.apache.hadoop.mapreduce.Mapper} over records, one at a time. */
    MAP,
    /**
     * Runs a {@link org.apache.hadoop.mapreduce.Reducer} over key groups of input that its parents
     * partitioned, sorted and combined by this step's settings.
     */
    REDUCE
  }

  private final Kind kind;
  private final Map<String, String> conf;

  public Step(Kind kind, Map<String, String> conf) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.conf = Collections.unmodifiableMap(new LinkedHashMap<>(conf));
  }

  /** The settings of {@code conf} that differ from {@code base}: a job's own settings. */
  public static Step of(Kind kind, Configuration conf, Configuration base) {
    Map<String, String> own = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : conf) {
      String baseValue = base == null ? null : base.getRaw(e.getKey());
      if (!e.getValue().equals(baseValue)) {
        own.put(e.getKey(), e.getValue());
      }
    }
    return new Step(kind, own);
  }

  public Kind kind() {
    return kind;
  }

  /** The keys this step sets over the run's configuration. */
  public Map<String, String> conf() {
    return conf;
  }

  /** {@code base} with this step's settings on top, as a fresh configuration. */
  public Configuration apply(Configuration base) {
    Configuration c = new Configuration(base);
    conf.forEach((k, v) -> c.set(k, v, "piranha step"));
    return c;
  }

  /** The step's settings read through MapReduce's own accessors (classes, comparators). */
  public JobContext context(Configuration base) {
    return new JobContextImpl(apply(base), null);
  }

  @Override
  public String toString() {
    return kind + conf.keySet().toString();
  }
}
