package dev.levee.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The value types settings use. Every one states what it allows in words an operator can act on.
 */
public final class ValueTypes {
  private ValueTypes() {}

  private static final Pattern CLASS_NAME =
      Pattern.compile(
          "[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}]*"
              + "(\\.[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}]*)*");

  public static ValueType<Boolean> bool() {
    return simple(
        "true or false",
        t ->
            switch (t.toLowerCase(Locale.ROOT)) {
              case "true" -> Boolean.TRUE;
              case "false" -> Boolean.FALSE;
              default -> throw new IllegalArgumentException("not a boolean");
            });
  }

  public static ValueType<Integer> ints(int min, int max) {
    return simple(
        "an integer between " + min + " and " + max,
        t -> {
          long v = Long.parseLong(t);
          if (v < min || v > max) {
            throw new IllegalArgumentException("out of range");
          }
          return (int) v;
        });
  }

  public static ValueType<Long> longs(long min, long max) {
    return simple(
        "an integer between " + min + " and " + max,
        t -> {
          long v = Long.parseLong(t);
          if (v < min || v > max) {
            throw new IllegalArgumentException("out of range");
          }
          return v;
        });
  }

  /**
   * A size in bytes with an optional binary suffix ({@code 512}, {@code 64k}, {@code 1m}, {@code
   * 2g}, {@code 1t}, with or without a trailing {@code b}), as Hadoop and Spark both write sizes. A
   * size that overflows a long fails like any other bad value, naming the key.
   */
  public static ValueType<Long> bytes(long min, long max) {
    String range =
        max == Long.MAX_VALUE
            ? "of at least " + formatBytes(min)
            : "between " + formatBytes(min) + " and " + formatBytes(max);
    return simple(
        "a byte size " + range + " (a number with an optional k, m, g or t suffix)",
        t -> {
          long v = parseBytes(t);
          if (v < min || v > max) {
            throw new IllegalArgumentException("out of range");
          }
          return v;
        });
  }

  /** {@link #bytes} for sizes that must fit an int (array and buffer sizes). */
  public static ValueType<Integer> intBytes(int min, int max) {
    ValueType<Long> longs = bytes(min, max);
    return simple(longs.allowed(), t -> longs.parse(t).intValue());
  }

  /** A decimal number in a range; each bound inclusive or not. */
  public static ValueType<Double> decimal(
      double min, boolean minInclusive, double max, boolean maxInclusive) {
    String range =
        (minInclusive ? "[" : "(") + trim(min) + ", " + trim(max) + (maxInclusive ? "]" : ")");
    return simple(
        "a number in " + range,
        t -> {
          double v = Double.parseDouble(t);
          boolean ok =
              !Double.isNaN(v)
                  && (minInclusive ? v >= min : v > min)
                  && (maxInclusive ? v <= max : v < max);
          if (!ok) {
            throw new IllegalArgumentException("out of range");
          }
          return v;
        });
  }

  /** A fraction in (0, 1]. */
  public static ValueType<Double> fraction() {
    return decimal(0, false, 1, true);
  }

  /** One of a fixed set of words, matched ignoring case; the value is the word as declared. */
  public static ValueType<String> choice(String... words) {
    List<String> allowed = Arrays.asList(words);
    return simple(
        String.join(" | ", allowed),
        t -> {
          for (String w : allowed) {
            if (w.equalsIgnoreCase(t)) {
              return w;
            }
          }
          throw new IllegalArgumentException("not one of " + allowed);
        });
  }

  /** One constant of an enum, matched ignoring case and with '-' for '_'. */
  public static <E extends Enum<E>> ValueType<E> enumOf(Class<E> type) {
    E[] values = type.getEnumConstants();
    StringBuilder words = new StringBuilder();
    for (E e : values) {
      words.append(words.length() == 0 ? "" : " | ").append(wordOf(e));
    }
    return simple(
        words.toString(),
        t -> {
          for (E e : values) {
            if (wordOf(e).equalsIgnoreCase(t) || e.name().equalsIgnoreCase(t)) {
              return e;
            }
          }
          throw new IllegalArgumentException("not a " + type.getSimpleName());
        });
  }

  /** How an enum constant is written in a configuration file: lower case, '-' for '_'. */
  public static String wordOf(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * Any text, the empty text included (which usually means "not set, use what the docs describe").
   */
  public static ValueType<String> text() {
    return simple("any text", t -> t);
  }

  public static ValueType<String> nonEmptyText() {
    return simple(
        "a non-empty text",
        t -> {
          if (t.isEmpty()) {
            throw new IllegalArgumentException("empty");
          }
          return t;
        });
  }

  /**
   * A fully qualified Java class name (not loaded here: the class may live only on the task's
   * classpath).
   */
  public static ValueType<String> className() {
    return simple(
        "a fully qualified Java class name",
        t -> {
          if (!CLASS_NAME.matcher(t).matches()) {
            throw new IllegalArgumentException("not a class name");
          }
          return t;
        });
  }

  /**
   * {@code base}, but each alias (matched ignoring case) stands for its value: {@code sort} for
   * Spark's own shuffle manager class, say. {@code allowed} says what is accepted, aliases
   * included.
   */
  public static ValueType<String> withAliases(
      ValueType<String> base, Map<String, String> aliases, String allowed) {
    return simple(
        allowed,
        t -> {
          String alias = aliases.get(t.toLowerCase(Locale.ROOT));
          return alias != null ? alias : base.parse(t);
        });
  }

  /**
   * A type with its own rule: {@code parse} throws IllegalArgumentException for values outside
   * {@code allowed}.
   */
  public static <T> ValueType<T> simple(String allowed, Function<String, T> parse) {
    return new ValueType<>() {
      @Override
      public T parse(String text) {
        return parse.apply(text);
      }

      @Override
      public String allowed() {
        return allowed;
      }
    };
  }

  /**
   * Parses {@code 64k}-style sizes; throws IllegalArgumentException on anything else, overflow
   * included.
   */
  public static long parseBytes(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.endsWith("b")) {
      t = t.substring(0, t.length() - 1);
    }
    if (t.isEmpty()) {
      throw new IllegalArgumentException("empty size");
    }
    int shift =
        switch (t.charAt(t.length() - 1)) {
          case 'k' -> 10;
          case 'm' -> 20;
          case 'g' -> 30;
          case 't' -> 40;
          case 'p' -> 50;
          default -> 0;
        };
    String digits = shift == 0 ? t : t.substring(0, t.length() - 1).trim();
    long n = Long.parseLong(digits);
    if (n < 0) {
      throw new IllegalArgumentException("negative size");
    }
    if (shift > 0 && n > (Long.MAX_VALUE >> shift)) {
      throw new IllegalArgumentException("size overflows a long");
    }
    return n << shift;
  }

  /** The shortest exact suffix form of a size: 4096 is "4k", 1073741824 is "1g". */
  public static String formatBytes(long bytes) {
    String[] units = {"", "k", "m", "g", "t", "p"};
    int u = 0;
    long v = bytes;
    while (u < units.length - 1 && v != 0 && v % 1024 == 0) {
      v /= 1024;
      u++;
    }
    return v + units[u];
  }

  private static String trim(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
