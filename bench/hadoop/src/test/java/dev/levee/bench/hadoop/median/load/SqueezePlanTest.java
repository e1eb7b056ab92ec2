package dev.levee.bench.hadoop.median.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SqueezePlanTest {
  private static final long GIB = 1L << 30;
  private static final long MIB = 1L << 20;

  @Test
  void pinsWhatIsAvailableAboveTheLeaveInWholeSteps() {
    SqueezePlan plan = SqueezePlan.withDefaultFloor(3 * GIB, 20 * GIB);
    MemInfo m = new MemInfo(24 * GIB, 23 * GIB + 10 * MIB, 0, 0);
    assertEquals(20 * GIB, plan.pinBytes(m));
    assertEquals(0, plan.pinBytes(m) % SqueezePlan.STEP_BYTES);
  }

  @Test
  void neverPinsMoreThanTheCapOrTotalMinusTheUnpinnedMinimum() {
    assertEquals(
        5 * GIB,
        SqueezePlan.withDefaultFloor(GIB, 5 * GIB).pinBytes(new MemInfo(24 * GIB, 23 * GIB, 0, 0)));
    // A machine whose MemAvailable is misreported as its whole memory still keeps 2 GiB unpinned.
    assertEquals(
        22 * GIB,
        SqueezePlan.withDefaultFloor(GIB, 100 * GIB)
            .pinBytes(new MemInfo(24 * GIB, 24 * GIB, 0, 0)));
  }

  @Test
  void pinsNothingOnABusyMachine() {
    assertEquals(
        0,
        SqueezePlan.withDefaultFloor(3 * GIB, 20 * GIB)
            .pinBytes(new MemInfo(24 * GIB, 2 * GIB, 0, 0)));
  }

  @Test
  void deflatesBackToTheLeaveOnlyOnceAvailableFallsBelowTheFloor() {
    SqueezePlan plan = SqueezePlan.withDefaultFloor(4 * GIB, 20 * GIB);
    assertEquals(2 * GIB, plan.floorBytes());
    assertEquals(18 * GIB, plan.deflatedSize(18 * GIB, 3 * GIB));
    assertEquals(18 * GIB, plan.deflatedSize(18 * GIB, 2 * GIB));
    // 1.5 GiB available: give back 2.5 GiB so that 4 GiB are available again.
    assertEquals(18 * GIB - 2560 * MIB, plan.deflatedSize(18 * GIB, 1536 * MIB));
    assertEquals(0, plan.deflatedSize(GIB, 100 * MIB));
    assertEquals(0, plan.deflatedSize(0, 0));
  }

  @Test
  void refusesToSqueezeHarderThanTheMinimumLeave() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> new SqueezePlan(512 * MIB, 256 * MIB, GIB));
    assertTrue(e.getMessage().contains("leave"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new SqueezePlan(2 * GIB, 3 * GIB, GIB));
  }
}
