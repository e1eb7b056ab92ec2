package org.apache.spark.shuffle.levee.suites

import java.util.concurrent.atomic.AtomicLong

import org.apache.logging.log4j.core.{LogEvent, LoggerContext}
import org.apache.logging.log4j.core.appender.AbstractAppender
import org.apache.spark.shuffle.levee.LeakyShuffleManager

/**
 * CensusCounts, in this JVM, the SparkContexts started and the leaky shuffle managers started on a driver.
 *
 * Spark's suites build their own SparkConfs, some from system properties (where the build sets
 * `spark.shuffle.manager`), some not: a test whose contexts did not all get the leaky manager would pass
 * without testing it. Every SparkContext logs "Running Spark version" first thing, and the leaky manager
 * logs one line when a driver creates it, so the two counts must move together.
 */
object SparkContextCensus {

  private val contexts = new AtomicLong
  private val leakyDrivers = new AtomicLong

  private lazy val installed: Unit = {
    val appender = new AbstractAppender("levee-spark-census", null, null, true, null) {
      override def append(event: LogEvent): Unit = {
        val message = event.getMessage.getFormattedMessage
        if (
          event.getLoggerName == "org.apache.spark.SparkContext" &&
          message.startsWith("Running Spark version")
        ) contexts.incrementAndGet()
        else if (message.startsWith(LeakyShuffleManager.DriverStartedMessage))
          leakyDrivers.incrementAndGet()
      }
    }
    appender.start()
    val ctx = LoggerContext.getContext(false)
    Seq("org.apache.spark.SparkContext", classOf[LeakyShuffleManager].getName).foreach { name =>
      val logger = ctx.getLogger(name)
      logger.setLevel(org.apache.logging.log4j.Level.INFO)
      logger.addAppender(appender)
    }
  }

  def now(): CensusCounts = {
    installed
    CensusCounts(contexts.get, leakyDrivers.get)
  }

  /** Fails, naming `what`, if a context started since `before` ran another shuffle manager. */
  def check(before: CensusCounts, what: String): CensusCounts = {
    val d = now() - before
    if (!d.allLeaky) {
      throw new AssertionError(
        s"$what started ${d.contexts} SparkContext(s) but only ${d.leakyDrivers} with the leaky shuffle " +
          "manager: a context did not get spark.shuffle.manager, so this run did not test it"
      )
    }
    d
  }
}

/** SparkContexts and leaky driver managers started in this JVM (or between two censuses). */
final case class CensusCounts(contexts: Long, leakyDrivers: Long) {
  def -(o: CensusCounts): CensusCounts =
    CensusCounts(contexts - o.contexts, leakyDrivers - o.leakyDrivers)
  def allLeaky: Boolean = contexts == leakyDrivers
}
