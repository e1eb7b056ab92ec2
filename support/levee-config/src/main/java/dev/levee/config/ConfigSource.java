package dev.levee.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Where settings come from: a Hadoop {@code Configuration}, a {@code SparkConf}, system properties,
 * a map. Each module adapts its framework's object in one line, so the registry depends on neither
 * framework.
 */
public interface ConfigSource {
  /** The raw value, or null when the key is not set. */
  String get(String key);

  /** Every key that is set (used to find unknown keys under a module's prefix). */
  Iterable<String> keys();

  static ConfigSource of(
      Function<String, String> lookup, Supplier<? extends Iterable<String>> keys) {
    return new ConfigSource() {
      @Override
      public String get(String key) {
        return lookup.apply(key);
      }

      @Override
      public Iterable<String> keys() {
        return keys.get();
      }
    };
  }

  /**
   * A source whose keys are those of {@code entries}, read afresh on each call: Hadoop's {@code
   * Configuration} is such an iterable, so a Hadoop module adapts it as {@code ofEntries(conf::get,
   * conf)}.
   */
  static ConfigSource ofEntries(
      Function<String, String> lookup, Iterable<? extends Map.Entry<String, String>> entries) {
    return of(
        lookup,
        () -> {
          List<String> names = new ArrayList<>();
          for (Map.Entry<String, String> e : entries) {
            names.add(e.getKey());
          }
          return names;
        });
  }

  static ConfigSource of(Map<String, String> values) {
    return of(values::get, values::keySet);
  }
}
