package dev.levee.themis;

/** How a map writes each partition: {@code auto} picks by the job's reduce-side shuffle. */
public enum OutputOrder {
  AUTO,
  UNSORTED,
  SORTED
}
