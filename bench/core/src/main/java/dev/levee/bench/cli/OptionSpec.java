package dev.levee.bench.cli;

import java.util.Objects;

/**
 * One {@code --name value} option (or {@code --name} flag) a command accepts.
 *
 * @param name without the leading dashes
 * @param valueHint what the value looks like, for help ("N", "URI", "SIZE"); null for a flag
 * @param help one line
 * @param defaultValue used when absent; null means the option is required (flags are never
 *     required)
 */
public record OptionSpec(String name, String valueHint, String help, String defaultValue) {

  public OptionSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(help, "help");
    if (name.startsWith("-")) {
      throw new IllegalArgumentException("option names are given without dashes: " + name);
    }
  }

  public static OptionSpec required(String name, String valueHint, String help) {
    return new OptionSpec(name, valueHint, help, null);
  }

  public static OptionSpec optional(
      String name, String valueHint, String help, String defaultValue) {
    return new OptionSpec(
        name, valueHint, help, Objects.requireNonNull(defaultValue, "defaultValue"));
  }

  public static OptionSpec flag(String name, String help) {
    return new OptionSpec(name, null, help, "false");
  }

  public boolean isFlag() {
    return valueHint == null;
  }

  public boolean isRequired() {
    return defaultValue == null;
  }

  /** " --records N how many records (required)". */
  public String helpLine() {
    String left = "--" + name + (isFlag() ? "" : " " + valueHint);
    String right =
        help + (isFlag() ? "" : isRequired() ? " (required)" : " (default " + defaultValue + ")");
    return String.format("  %-28s %s", left, right);
  }
}
