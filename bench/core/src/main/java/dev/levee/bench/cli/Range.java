package dev.levee.bench.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Bounds of a numeric option (or of every element of a list option), checked by {@link
 * OptionsCommand} after picocli has converted the value: picocli types values but has no ranges.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface Range {
  double min() default Double.NEGATIVE_INFINITY;

  double max() default Double.POSITIVE_INFINITY;

  /** Whether {@link #min()} itself is refused (an exponent that must be above 0). */
  boolean exclusiveMin() default false;
}
