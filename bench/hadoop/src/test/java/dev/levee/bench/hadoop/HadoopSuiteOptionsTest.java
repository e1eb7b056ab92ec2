package dev.levee.bench.hadoop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.SuiteOptionsCheck;
import dev.levee.bench.SuiteRegistry;
import org.junit.jupiter.api.Test;

/** The Hadoop side's suites: their help, their defaults and their presets pass their own checks. */
class HadoopSuiteOptionsTest {
  @Test
  void everySuitesDefaultsAndPresetPassTheirOwnChecks() {
    SuiteRegistry suites = SuiteRegistry.discover(getClass().getClassLoader());
    assertTrue(
        suites.contains("sponge-median") && suites.contains("themis"), suites.names().toString());
    assertTrue(SuiteOptionsCheck.checkEverySuite(suites) >= 8);
  }
}
