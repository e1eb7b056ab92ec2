package dev.levee.sponge.pig;

import dev.levee.sponge.SpongeCounters;
import org.apache.pig.tools.pigstats.PigStatusReporter;

/** Where bag spill figures go: the task's counters in a Pig task, a map in tests. */
interface BagCounters {
  void add(String name, long delta);

  /**
   * The running task's counters (group {@value SpongeCounters#GROUP}), through the reporter Pig
   * sets up for every map and reduce; outside a task the figures are dropped.
   */
  BagCounters TASK =
      (name, delta) -> {
        PigStatusReporter reporter = PigStatusReporter.getInstance();
        if (reporter != null) {
          reporter.incrCounter(SpongeCounters.GROUP, name, delta);
        }
      };
}
