package dev.levee.it.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Collectors;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;

/**
 * Hadoop 3.3 and 3.4 wrote their tests for JUnit 4, which this module's JUnit 5 platform does not
 * run. Each {@code *OnJUnit4Test} here extends one of them, so that SpongeNodeExtension treats it
 * as Hadoop's class (and checks the plugin really ran), and runs the parent's JUnit 4 tests
 * unchanged from one JUnit 5 test.
 */
final class JUnit4Run {

  private JUnit4Run() {}

  static void assertPasses(Request tests) {
    Result result = new JUnitCore().run(tests);
    assertTrue(
        result.wasSuccessful() && result.getRunCount() > 0,
        result.getRunCount()
            + " run, failures: "
            + result.getFailures().stream()
                .map(f -> f.getDescription() + ": " + f.getTrace())
                .collect(Collectors.joining("\n")));
  }
}
