package dev.levee.bench;

/**
 * A benchmark suite runnable as {@code BenchMain <name> [options]}.
 *
 * <p>This is the extension point: implement it, then list the class in {@code
 * META-INF/services/dev.levee.bench.Suite} of the module that holds it (or pass it to {@link
 * SuiteRegistry#with(Suite)}). Any module on the runner's classpath contributes its suites that
 * way. A suite records each measurement through {@link SuiteContext#record}; it never writes result
 * files itself.
 */
public interface Suite {

  /** Lower-case, hyphenated; also the results file name ({@code <name>.jsonl}). */
  String name();

  /** One line for {@code --help}. */
  String summary();

  /**
   * A new object whose picocli {@code @Option} fields (and {@code @Mixin}s) are the suite's own
   * options, with their defaults; {@code --results} and {@code --help} are added for every suite.
   * The running suite reads it back through {@link SuiteContext#options(Class)}.
   */
  Object newOptions();

  void run(SuiteContext context) throws Exception;
}
