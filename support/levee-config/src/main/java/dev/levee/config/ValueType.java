package dev.levee.config;

/**
 * How the text of a setting becomes a value, and what text is allowed. {@link #parse} sees the
 * value trimmed and throws {@link IllegalArgumentException} for anything outside {@link
 * #allowed()}; {@link ConfigKey} turns that into a {@link ConfigException} naming the key.
 */
public interface ValueType<T> {
  T parse(String text);

  /** What is allowed, phrased to follow "expected", e.g. "a byte size between 4k and 1g". */
  String allowed();
}
