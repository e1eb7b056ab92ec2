package dev.levee.bench.cli;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The value spellings every suite shares, as picocli converters. {@link OptionsCommand} makes
 * {@link Count} and {@link IntCount} the converters of every long and int option, so any count may
 * be written 400k; a size names {@link ByteSize} itself, since its suffixes are binary.
 */
public final class Converters {
  private Converters() {}

  /** A count with an optional decimal suffix: 400k, 24m, 2g (10^3, 10^6, 10^9). */
  public static final class Count implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      String t = value.trim().toLowerCase(Locale.ROOT).replace("_", "");
      long multiplier =
          t.endsWith("k")
              ? 1_000L
              : t.endsWith("m") ? 1_000_000L : t.endsWith("g") ? 1_000_000_000L : 1;
      try {
        return Math.multiplyExact(
            Long.parseLong(multiplier == 1 ? t : t.substring(0, t.length() - 1)), multiplier);
      } catch (NumberFormatException | ArithmeticException e) {
        throw new TypeConversionException(
            "expected an integer (suffixes k, m, g allowed), got '" + value + "'");
      }
    }
  }

  /** An int written as a {@link Count}, refused when it does not fit. */
  public static final class IntCount implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      long v = new Count().convert(value);
      if (v != (int) v) {
        throw new TypeConversionException(
            "expected an integer from "
                + Integer.MIN_VALUE
                + " to "
                + Integer.MAX_VALUE
                + ", got '"
                + value
                + "'");
      }
      return (int) v;
    }
  }

  /** A size in bytes, plain or with a binary suffix: 4096, 64k, 512m, 2g (1k = 1024). */
  public static final class ByteSize implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      try {
        return Sizes.parseBytes(value);
      } catch (NumberFormatException e) {
        throw new TypeConversionException(
            "expected a size such as 4096, 64k, 512m or 2g, got '" + value + "'");
      }
    }
  }

  /**
   * {@code on} or {@code off}, as the suites' switches are written; its option needs {@code arity =
   * "1"}, or picocli takes a boolean option for a flag.
   */
  public static final class OnOff implements ITypeConverter<Boolean> {
    @Override
    public Boolean convert(String value) {
      // picocli hands a boolean's default back as true or false.
      return switch (value.trim()) {
        case "on", "true" -> true;
        case "off", "false" -> false;
        default -> throw new TypeConversionException("expected on or off, got '" + value + "'");
      };
    }
  }

  /**
   * An enum written by its label ({@code no-spill}, not {@code NO_SPILL}); subclass it once per
   * enum, since an annotation names a converter by class. As the option's {@code
   * completionCandidates} it lists the labels in the help.
   */
  public abstract static class Labels<E extends Enum<E>>
      implements ITypeConverter<E>, Iterable<String> {
    private final E[] values;
    private final Function<E, String> label;

    protected Labels(E[] values, Function<E, String> label) {
      this.values = values;
      this.label = label;
    }

    @Override
    public E convert(String value) {
      String t = value.trim();
      if (t.isEmpty()) {
        throw new TypeConversionException("an empty item; name at least one of " + allowed());
      }
      return Arrays.stream(values)
          .filter(v -> label.apply(v).equals(t))
          .findFirst()
          .orElseThrow(
              () -> new TypeConversionException("unknown '" + t + "'; allowed: " + allowed()));
    }

    @Override
    public Iterator<String> iterator() {
      return Arrays.stream(values).map(label).iterator();
    }

    private String allowed() {
      return Arrays.stream(values).map(label).collect(Collectors.joining(", "));
    }
  }
}
