package dev.levee.bench.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a boolean option: when it is given, these {@code name=value} pairs (option names without
 * dashes) replace the defaults of the options the user did not give, and the replaced values pass
 * the same conversion and checks as typed ones.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface Preset {
  String[] value();
}
