package dev.levee.bench.hadoop.themis;

import dev.levee.bench.disk.BusySampler;
import java.util.Map;

/**
 * What the emulated disk did in each phase of one job: how busy it was (1.0: the phase ran at the
 * disk's speed, the paper's regime) and what it moved. Absent on the real disk.
 */
record EmulatedUse(BusySampler.Span phase1, BusySampler.Span phase2) {

  /** The phases' spans from a sampler that ran through the job; null when none ran. */
  static EmulatedUse of(BusySampler sampler, JobPhases phases) {
    return sampler == null
        ? null
        : new EmulatedUse(
            sampler.between(phases.mapStartMillis(), phases.mapEndMillis()),
            sampler.between(phases.mapEndMillis(), phases.reduceEndMillis()));
  }

  void addTo(Map<String, Double> metrics) {
    put(metrics, "phase1", phase1);
    put(metrics, "phase2", phase2);
  }

  private static void put(Map<String, Double> m, String phase, BusySampler.Span s) {
    if (Double.isNaN(s.busy())) {
      return;
    }
    m.put(phase + "_emulated_disk_busy", s.busy());
    m.put(phase + "_emulated_disk_mb_read", s.readMb());
    m.put(phase + "_emulated_disk_mb_written", s.writtenMb());
    m.put(phase + "_emulated_disk_seeks", (double) s.seeks());
  }
}
