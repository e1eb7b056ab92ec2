package dev.levee.bench.hadoop;

import dev.levee.bench.BenchCli;
import dev.levee.bench.SuiteRegistry;
import dev.levee.bench.gen.Datasets;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Entry point of the Hadoop-side bench runner. Suites come from every {@code
 * META-INF/services/dev.levee.bench.Suite} on the classpath (bench-core's physical-limits, and
 * whatever Hadoop-side suites are added), so registering a suite needs no change here.
 *
 * <pre>
 * java -cp bench/hadoop/target/classes:$(cat bench/hadoop/target/classpath.txt) dev.levee.bench.hadoop.BenchMain --help
 * </pre>
 */
public final class BenchMain {
  /**
   * Guice, in YARN's web apps, warns through java.util.logging that more than one servlet injector
   * runs: true of every in-process cluster (a ResourceManager and NodeManagers in one JVM) and
   * nothing to act on. Held in a field because java.util.logging keeps its loggers weakly and a
   * collected one forgets its level.
   */
  private static final Logger GUICE_SERVLET = Logger.getLogger("com.google.inject.servlet");

  private BenchMain() {}

  public static void main(String[] args) {
    GUICE_SERVLET.setLevel(Level.SEVERE);
    SuiteRegistry suites = SuiteRegistry.discover(BenchMain.class.getClassLoader());
    BenchCli cli =
        new BenchCli("./levee bench", suites, Datasets.builtIn(), System.out, System.err);
    int status = cli.run(args);
    System.out.flush();
    System.exit(status);
  }
}
