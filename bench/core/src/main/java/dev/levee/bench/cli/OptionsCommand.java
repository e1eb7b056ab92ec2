package dev.levee.bench.cli;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * One bench command's options: picocli parses and converts the arguments into the {@code @Option}
 * fields of the objects given, and writes the help; this class adds what picocli leaves to its
 * users: {@link Range} checks, {@link Preset}s, {@link Validated} cross-checks, and errors as
 * {@link BadArgumentException}s that name the option and what is allowed.
 */
public final class OptionsCommand {
  /** Usage lines wrap here: a terminal's width, and the width the docs quote. */
  private static final int HELP_WIDTH = 100;

  private final CommandLine line;

  /**
   * @param synopsis the usage line, e.g. {@code levee bench scatter-sim [options]}
   * @param description what the command does, shown under the usage line
   * @param options objects with {@code @Option}/{@code @Parameters} fields (a suite's options,
   *     shared groups such as {@code --disk}; a plain {@code new Object()} for none); {@code
   *     --help} is added
   */
  public OptionsCommand(String synopsis, String description, Object... options) {
    CommandSpec spec = CommandSpec.create();
    List<Object> parts = new ArrayList<>(List.of(options));
    parts.add(new HelpOption());
    for (int i = 0; i < parts.size(); i++) {
      // A plain Object is a command without options of its own (picocli refuses to scan one).
      if (parts.get(i).getClass() != Object.class) {
        spec.addMixin("part" + i, CommandSpec.forAnnotatedObject(parts.get(i)));
      }
    }
    spec.usageMessage()
        .synopsisHeading("")
        .customSynopsis("usage: " + synopsis + "%n")
        .description(description.isEmpty() ? new String[0] : new String[] {description})
        .optionListHeading("%n")
        .showDefaultValues(true)
        .requiredOptionMarker('*')
        .width(HELP_WIDTH);
    line = new CommandLine(spec);
    // An argument starting with @ is a value here (a revision, a path), never a file to expand.
    line.setExpandAtFiles(false);
    line.registerConverter(Long.class, new Converters.Count());
    line.registerConverter(Long.TYPE, new Converters.Count());
    line.registerConverter(Integer.class, new Converters.IntCount());
    line.registerConverter(Integer.TYPE, new Converters.IntCount());
  }

  /**
   * Parses {@code args} into {@code options}, for code that states options rather than reading a
   * command line (the suites configuring a dataset, tests); the same checks apply.
   */
  public static <T> T parse(T options, List<String> args) {
    new OptionsCommand("", "", options).parse(args);
    return options;
  }

  /**
   * Parses {@code args} into the option objects.
   *
   * @return false when {@code --help} was asked for (nothing is checked then)
   */
  public boolean parse(List<String> args) {
    // Once with the declared defaults; once more when a preset flag came out true, so that the
    // flag is read as picocli reads it (--quick, --quick=TRUE) and the preset fills the rest.
    line.getCommandSpec().defaultValueProvider(null);
    if (!parseOnce(args)) {
      return false;
    }
    Map<String, String> preset = chosenPresets();
    if (!preset.isEmpty()) {
      line.getCommandSpec()
          .defaultValueProvider(
              a -> a instanceof OptionSpec o ? preset.get(o.longestName()) : null);
      parseOnce(args);
    }
    options().forEach(OptionsCommand::checkRange);
    validated(line.getCommandSpec()).forEach(Validated::validate);
    return true;
  }

  private boolean parseOnce(List<String> args) {
    try {
      return !line.parseArgs(args.toArray(String[]::new)).isUsageHelpRequested();
    } catch (ParameterException e) {
      // Asked for help, the user gets it, whatever else on the line is wrong: the help says what is
      // allowed, which is what the error would have said.
      if (args.contains("--help")) {
        return false;
      }
      throw new BadArgumentException(message(e));
    }
  }

  /** The option objects that check themselves, mixed in at any depth (--disk's DiskChoice). */
  private static List<Validated> validated(CommandSpec spec) {
    List<Validated> out = new ArrayList<>();
    for (CommandSpec mixin : spec.mixins().values()) {
      if (mixin.userObject() instanceof Validated v) {
        out.add(v);
      }
      out.addAll(validated(mixin));
    }
    return out;
  }

  /** Whether the user gave {@code --name} (rather than its default applying). */
  public boolean isGiven(String name) {
    return line.getParseResult() != null && line.getParseResult().hasMatchedOption("--" + name);
  }

  public String usage() {
    // An empty default ("" for "not set") says nothing: drop its line rather than print "Default:
    // ".
    return line.getUsageMessage(CommandLine.Help.Ansi.OFF)
        .replaceAll("(?m)^ +Default:( null)? *\\R", "");
  }

  /**
   * Every option with its effective value as a string, by name without dashes, sorted: what a
   * result or a dataset manifest records as its parameters.
   */
  public Map<String, String> effectiveValues() {
    Map<String, String> all = new TreeMap<>();
    for (OptionSpec o : options()) {
      if (!o.usageHelp()) {
        all.put(o.longestName().substring(2), asText(o.getValue()));
      }
    }
    return all;
  }

  private List<OptionSpec> options() {
    return line.getCommandSpec().options();
  }

  /** The defaults of the {@link Preset} flags that were set, by option name. */
  private Map<String, String> chosenPresets() {
    Map<String, String> preset = new LinkedHashMap<>();
    for (OptionSpec o : options()) {
      Preset p = annotation(o, Preset.class);
      if (p != null && Boolean.TRUE.equals(o.getValue())) {
        for (String pair : p.value()) {
          int eq = pair.indexOf('=');
          preset.put("--" + pair.substring(0, eq), pair.substring(eq + 1));
        }
      }
    }
    return preset;
  }

  private static void checkRange(OptionSpec o) {
    Range r = annotation(o, Range.class);
    Object value = o.getValue();
    if (r == null || value == null) {
      return;
    }
    boolean single = !(value instanceof Collection<?>);
    Collection<?> values = single ? List.of(value) : (Collection<?>) value;
    for (Object v : values) {
      double d = ((Number) v).doubleValue();
      boolean aboveMin = r.exclusiveMin() ? d > r.min() : d >= r.min();
      if (!aboveMin || d > r.max()) {
        // As typed (512m), when it was typed whole, rather than converted (536870912).
        List<String> typed = o.originalStringValues();
        String shown = single && !typed.isEmpty() ? typed.get(typed.size() - 1) : asText(v);
        boolean bytes =
            java.util.Arrays.stream(o.converters()).anyMatch(Converters.ByteSize.class::isInstance);
        throw new BadArgumentException(
            o.longestName() + ": expected " + bounds(r, bytes) + ", got " + shown);
      }
    }
  }

  private static String bounds(Range r, boolean bytes) {
    boolean hasMin = r.min() != Double.NEGATIVE_INFINITY;
    boolean hasMax = r.max() != Double.POSITIVE_INFINITY;
    String min = (r.exclusiveMin() ? "> " : ">= ") + number(r.min(), bytes);
    if (hasMin && hasMax && !r.exclusiveMin()) {
      return "a value from " + number(r.min(), bytes) + " to " + number(r.max(), bytes);
    }
    return hasMin && hasMax
        ? "a value " + min + " and <= " + number(r.max(), bytes)
        : hasMin ? "a value " + min : "a value <= " + number(r.max(), bytes);
  }

  private static String number(double d, boolean bytes) {
    return bytes ? Sizes.format((long) d) : number(d);
  }

  private static String number(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15
        ? Long.toString((long) d)
        : String.format(Locale.ROOT, "%s", d);
  }

  private static String asText(Object v) {
    if (v instanceof Collection<?> c) {
      return c.stream().map(OptionsCommand::asText).collect(Collectors.joining(","));
    }
    return v instanceof Double d ? number(d) : String.valueOf(v);
  }

  private static <A extends java.lang.annotation.Annotation> A annotation(
      OptionSpec o, Class<A> type) {
    return o.userObject() instanceof Field f ? f.getAnnotation(type) : null;
  }

  /** picocli's message, with the options there are when one was not recognised. */
  private String message(ParameterException e) {
    String m = e.getMessage();
    if (e instanceof UnmatchedArgumentException u && u.isUnknownOption()) {
      List<String> near = u.getSuggestions();
      return m
          + (near.isEmpty() ? "" : "; did you mean " + String.join(" or ", near) + "?")
          + "; allowed: "
          + options().stream()
              .filter(o -> !o.usageHelp())
              .map(OptionSpec::longestName)
              .collect(Collectors.joining(", "));
    }
    return m;
  }

  /** {@code --help}, for every command. */
  static final class HelpOption {
    @Option(names = "--help", usageHelp = true, description = "show this help")
    boolean help;
  }
}
