package org.apache.spark.shuffle.levee.suites

import java.util.concurrent.atomic.AtomicLong

import org.apache.logging.log4j.core.{LogEvent, LoggerContext}
import org.apache.logging.log4j.core.appender.AbstractAppender

/**
 * Counts, in this JVM, the SparkContexts started and the drivers that started the shuffle manager under test
 * ([[ManagerUnderTest]]).
 *
 * Spark's suites build their own SparkConfs, some from system properties (where the build sets
 * `spark.shuffle.manager`), some not: a test whose contexts did not all get the manager would pass without
 * testing it. Every SparkContext logs "Running Spark version" first thing, and each Levee manager logs one line
 * when a driver creates it, so the two counts must move together.
 */
object SparkContextCensus {
  private val manager = ManagerUnderTest.current
  private val contexts = new AtomicLong
  private val managerDrivers = new AtomicLong

  private lazy val installed: Unit = {
    val appender = new AbstractAppender("levee-spark-census", null, null, true, null) {
      override def append(event: LogEvent): Unit = {
        val message = event.getMessage.getFormattedMessage
        if (
          event.getLoggerName == "org.apache.spark.SparkContext" &&
          message.startsWith("Running Spark version")
        ) contexts.incrementAndGet()
        else if (
          event.getLoggerName == manager.loggerName &&
          message.startsWith(manager.driverStartedMessage)
        ) managerDrivers.incrementAndGet()
      }
    }
    appender.start()
    val ctx = LoggerContext.getContext(false)
    Seq("org.apache.spark.SparkContext", manager.loggerName).foreach { name =>
      val logger = ctx.getLogger(name)
      // In this order: adding an appender gives the logger its own configuration, at its parent's level.
      logger.addAppender(appender)
      logger.setLevel(org.apache.logging.log4j.Level.INFO)
    }
  }

  def now(): CensusCounts = {
    installed
    CensusCounts(contexts.get, managerDrivers.get)
  }

  /** Fails, naming `what`, if a context started since `before` ran another shuffle manager. */
  def check(before: CensusCounts, what: String): CensusCounts = {
    val d = now() - before
    if (!d.allManaged) {
      throw new AssertionError(
        s"$what started ${d.contexts} SparkContext(s) but only ${d.managerDrivers} with the ${manager.name} " +
          "shuffle manager: a context did not get the build's settings, so this run did not test it"
      )
    }
    d
  }
}

/** SparkContexts and drivers' managers under test started in this JVM (or between two censuses). */
final case class CensusCounts(contexts: Long, managerDrivers: Long) {
  def -(o: CensusCounts): CensusCounts =
    CensusCounts(contexts - o.contexts, managerDrivers - o.managerDrivers)
  def allManaged: Boolean = contexts == managerDrivers
}
