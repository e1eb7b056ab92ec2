package dev.levee.config;

import java.util.Map;

/**
 * The two keys every Levee shuffle manager for Spark declares under its own prefix: whether it is
 * on, and which shuffle manager it wraps. Declared here once so the Spark plugins word, default and
 * parse them alike; Spark is not needed for that (these are names and class-name strings), so this
 * module stays free of dependencies.
 */
public final class SparkShuffleKeys {
  /** Spark's own sort-based shuffle manager, what {@code sort} and {@code tungsten-sort} name. */
  public static final String SPARK_SORT = "org.apache.spark.shuffle.sort.SortShuffleManager";

  private static final String SINCE = "0.1.0";

  private SparkShuffleKeys() {}

  /** {@code <prefix>enabled}: {@code false} makes the manager a pure proxy of its delegate. */
  public static ConfigKey<Boolean> enabled(ConfigRegistry.Builder registry, String prefix) {
    return registry
        .key(prefix + "enabled", ValueTypes.bool())
        .defaultValue("true")
        .doc("`false` makes the shuffle manager a pure proxy of its delegate.")
        .since(SINCE)
        .build();
  }

  /**
   * {@code <prefix>shuffle.delegate}: the manager this one wraps, Spark's own by default; {@code
   * doc} says what the delegate does for this plugin.
   */
  public static ConfigKey<String> delegate(
      ConfigRegistry.Builder registry, String prefix, String doc) {
    return registry
        .key(prefix + "shuffle.delegate", delegateType())
        .defaultValue(SPARK_SORT)
        .doc(doc)
        .since(SINCE)
        .build();
  }

  /** A shuffle manager class name, or Spark's aliases for its own. */
  static ValueType<String> delegateType() {
    return ValueTypes.withAliases(
        ValueTypes.className(),
        Map.of("sort", SPARK_SORT, "tungsten-sort", SPARK_SORT),
        "a ShuffleManager class name, or sort / tungsten-sort for Spark's own");
  }
}
