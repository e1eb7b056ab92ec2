package dev.levee.bench.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Options parsed against a list of {@link OptionSpec}s, with typed getters that reject bad values
 * with a message naming the option, the value and what is allowed.
 */
public final class ParsedOptions {
  private final Map<String, OptionSpec> specs;
  private final Map<String, String> given;
  private final List<String> positional;

  private ParsedOptions(
      Map<String, OptionSpec> specs, Map<String, String> given, List<String> positional) {
    this.specs = specs;
    this.given = given;
    this.positional = positional;
  }

  /**
   * Accepts {@code --name value}, {@code --name=value} and bare {@code --flag}; anything not
   * starting with {@code --} is positional. Unknown, repeated and missing required options are
   * errors.
   */
  public static ParsedOptions parse(List<OptionSpec> specList, List<String> args) {
    Map<String, OptionSpec> specs = new LinkedHashMap<>();
    for (OptionSpec s : specList) {
      if (specs.put(s.name(), s) != null) {
        throw new IllegalArgumentException("option declared twice: --" + s.name());
      }
    }
    Map<String, String> given = new LinkedHashMap<>();
    List<String> positional = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.startsWith("--") || arg.equals("--")) {
        positional.add(arg);
        continue;
      }
      String name = arg.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      OptionSpec spec = specs.get(name);
      if (spec == null) {
        throw new BadArgumentException(
            "unknown option --"
                + name
                + "; allowed: "
                + (specs.isEmpty()
                    ? "none"
                    : specs.keySet().stream()
                        .map(n -> "--" + n)
                        .collect(Collectors.joining(", "))));
      }
      if (spec.isFlag()) {
        if (value != null && !value.equals("true") && !value.equals("false")) {
          throw new BadArgumentException(
              "--"
                  + name
                  + " is a flag: give it alone or as --"
                  + name
                  + "=true|false, not '"
                  + value
                  + "'");
        }
        value = value == null ? "true" : value;
      } else if (value == null) {
        if (i + 1 >= args.size() || args.get(i + 1).startsWith("--")) {
          throw new BadArgumentException("--" + name + " needs a value (" + spec.valueHint() + ")");
        }
        value = args.get(++i);
      }
      if (given.put(name, value) != null) {
        throw new BadArgumentException("--" + name + " given more than once");
      }
    }
    for (OptionSpec s : specs.values()) {
      if (s.isRequired() && !given.containsKey(s.name())) {
        throw new BadArgumentException(
            "missing required option --" + s.name() + " " + s.valueHint() + ": " + s.help());
      }
    }
    return new ParsedOptions(specs, given, Collections.unmodifiableList(positional));
  }

  public List<String> positional() {
    return positional;
  }

  public boolean isGiven(String name) {
    spec(name);
    return given.containsKey(name);
  }

  public String string(String name) {
    OptionSpec s = spec(name);
    return given.getOrDefault(name, s.defaultValue());
  }

  public boolean flag(String name) {
    return Boolean.parseBoolean(string(name));
  }

  public long longAtLeast(String name, long min) {
    String v = string(name);
    long parsed;
    try {
      parsed = parseLongWithSuffix(v);
    } catch (NumberFormatException e) {
      throw new BadArgumentException(
          "--"
              + name
              + ": expected an integer >= "
              + min
              + " (suffixes k, m, g allowed), got '"
              + v
              + "'");
    }
    if (parsed < min) {
      throw new BadArgumentException("--" + name + ": must be >= " + min + ", got " + v);
    }
    return parsed;
  }

  public int intIn(String name, int min, int max) {
    long v = longAtLeast(name, min);
    if (v > max) {
      throw new BadArgumentException(
          "--" + name + ": must be between " + min + " and " + max + ", got " + string(name));
    }
    return (int) v;
  }

  /** A size in bytes: plain, or with a binary suffix k/m/g/t (1k = 1024). */
  public long bytesAtLeast(String name, long min) {
    String v = string(name);
    long parsed;
    try {
      parsed = Sizes.parseBytes(v);
    } catch (NumberFormatException e) {
      throw new BadArgumentException(
          "--" + name + ": expected a size such as 4096, 64k, 512m or 2g, got '" + v + "'");
    }
    if (parsed < min) {
      throw new BadArgumentException(
          "--" + name + ": must be at least " + Sizes.format(min) + ", got " + v);
    }
    return parsed;
  }

  /**
   * A finite double with {@code min < value <= max} when {@code exclusiveMin}, else {@code min <=
   * value <= max}.
   */
  public double doubleIn(String name, double min, double max, boolean exclusiveMin) {
    String v = string(name);
    double d;
    try {
      d = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      d = Double.NaN;
    }
    boolean ok = Double.isFinite(d) && (exclusiveMin ? d > min : d >= min) && d <= max;
    if (!ok) {
      throw new BadArgumentException(
          "--"
              + name
              + ": expected a number "
              + (exclusiveMin ? "> " : ">= ")
              + min
              + (Double.isInfinite(max) ? "" : " and <= " + max)
              + ", got '"
              + v
              + "'");
    }
    return d;
  }

  public String choice(String name, List<String> allowed) {
    String v = string(name);
    if (!allowed.contains(v)) {
      throw new BadArgumentException(
          "--" + name + ": expected one of " + String.join(", ", allowed) + ", got '" + v + "'");
    }
    return v;
  }

  /**
   * Every option with its effective value, sorted by name: what a result line records as its
   * params.
   */
  public Map<String, String> effectiveValues() {
    Map<String, String> all = new TreeMap<>();
    for (OptionSpec s : specs.values()) {
      all.put(s.name(), string(s.name()));
    }
    return all;
  }

  private OptionSpec spec(String name) {
    OptionSpec s = specs.get(name);
    if (s == null) {
      throw new IllegalArgumentException("no option --" + name + " was declared");
    }
    return s;
  }

  private static long parseLongWithSuffix(String v) {
    String t = v.trim().toLowerCase();
    long mult = 1;
    if (t.endsWith("k")) {
      mult = 1_000L;
    } else if (t.endsWith("m")) {
      mult = 1_000_000L;
    } else if (t.endsWith("g")) {
      mult = 1_000_000_000L;
    }
    if (mult != 1) {
      t = t.substring(0, t.length() - 1);
    }
    return Math.multiplyExact(Long.parseLong(t.replace("_", "")), mult);
  }
}
