package dev.levee.bench.cli;

import java.util.List;

/** A string option that takes one of a few words; picocli checks enums only, not such words. */
public final class Choices {
  private Choices() {}

  /** {@code value} when it is one of {@code allowed}; else an error naming the option and them. */
  public static String oneOf(String option, String value, List<String> allowed) {
    if (!allowed.contains(value)) {
      throw new BadArgumentException(
          option + ": expected one of " + String.join(", ", allowed) + ", got '" + value + "'");
    }
    return value;
  }
}
