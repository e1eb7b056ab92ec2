package dev.levee.bench.limits;

import java.util.Map;

/**
 * One physical limit, measured as bandwidth. The suite calls {@link #setUp()}, an unrecorded
 * warm-up {@link #measure()} when {@link #wantsWarmUp()}, the recorded repetitions, then {@link
 * #close()}.
 */
public interface BandwidthProbe extends AutoCloseable {

  /** The variant name in result lines, e.g. "memcpy-heap". */
  String variant();

  /** Sizes and modes that define what was measured; the same for every repetition. */
  Map<String, Object> params();

  /** One line on what is being measured and how, for the printed table. */
  String method();

  default void setUp() throws Exception {}

  default boolean wantsWarmUp() {
    return true;
  }

  Sample measure() throws Exception;

  @Override
  default void close() throws Exception {}
}
