package dev.levee.bench.cli;

/**
 * Options whose values constrain each other; {@link OptionsCommand} calls {@link #validate()} once
 * every option is converted and within its {@link Range}.
 */
public interface Validated {
  /** Throws {@link BadArgumentException} naming the options that disagree and what is allowed. */
  void validate();
}
