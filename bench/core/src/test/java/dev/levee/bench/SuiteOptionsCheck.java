package dev.levee.bench;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.OptionsCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What every suite's options must do, whichever module holds the suite: its --help lists them, and
 * its defaults (and its --quick preset, when it has one) pass their own conversions and checks, so
 * a default that its own range refuses fails here rather than on a user's first run.
 */
public final class SuiteOptionsCheck {
  private static final Pattern MISSING = Pattern.compile("Missing required option: '(--[a-z-]+)=");

  private SuiteOptionsCheck() {}

  /** Checks every suite of {@code registry}; returns how many it checked. */
  public static int checkEverySuite(SuiteRegistry registry) {
    for (Suite s : registry.all()) {
      OptionsCommand help = new OptionsCommand(s.name(), s.summary(), s.newOptions());
      // Plain AssertionErrors: the Spark side's ScalaTest suites call this too, without JUnit.
      if (help.parse(List.of("--help"))) {
        throw new AssertionError(s.name() + ": --help should ask for no run");
      }
      String usage = help.usage();
      // The help wraps the summary, so compare with the line breaks as spaces.
      String flat = usage.replaceAll("\\s+", " ");
      if (!flat.contains("--help") || !flat.contains(s.summary().replaceAll("\\s+", " "))) {
        throw new AssertionError(s.name() + ": its help lacks --help or its summary: " + usage);
      }
      List<String> required = parseDefaults(s, new ArrayList<>());
      if (usage.contains("--quick")) {
        List<String> quick = new ArrayList<>(required);
        quick.add("--quick");
        parseDefaults(s, quick);
      }
    }
    return registry.all().size();
  }

  /** Parses {@code args}, adding a dummy value for each required option; returns the arguments. */
  private static List<String> parseDefaults(Suite s, List<String> args) {
    for (int attempt = 0; ; attempt++) {
      try {
        new OptionsCommand(s.name(), s.summary(), s.newOptions()).parse(args);
        return args;
      } catch (BadArgumentException e) {
        Matcher m = MISSING.matcher(e.getMessage());
        if (!m.find() || attempt > 4) {
          throw new AssertionError(s.name() + " " + args + ": refused: " + e.getMessage(), e);
        }
        args.add(m.group(1));
        args.add("x");
      }
    }
  }
}
