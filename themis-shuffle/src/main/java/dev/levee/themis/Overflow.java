package dev.levee.themis;

/**
 * What a task does when its data outgrows its memory budget: {@code spill} writes sorted runs and
 * merges them once (one extra write and read of what overflowed, counted), {@code fail} stops the
 * task as the paper's job-restart model would.
 */
public enum Overflow {
  SPILL,
  FAIL
}
