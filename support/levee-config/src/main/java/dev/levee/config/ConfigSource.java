package dev.levee.config;

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

  static ConfigSource of(Map<String, String> values) {
    return of(values::get, values::keySet);
  }
}
