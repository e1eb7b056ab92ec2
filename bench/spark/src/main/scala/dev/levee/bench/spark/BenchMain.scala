package dev.levee.bench.spark

import dev.levee.bench.{BenchCli, SuiteRegistry}
import dev.levee.bench.gen.Datasets

/**
 * Entry point of the Spark-side bench runner: the same command line as the Hadoop side, with the suites found on
 * this classpath (META-INF/services/dev.levee.bench.Suite).
 */
object BenchMain {
  def main(args: Array[String]): Unit = {
    val suites = SuiteRegistry.discover(getClass.getClassLoader)
    val status =
      new BenchCli("./levee bench", suites, Datasets.builtIn(), System.out, System.err).run(args)
    System.out.flush()
    System.exit(status)
  }
}
