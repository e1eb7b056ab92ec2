package org.apache.spark.shuffle.levee.suites

import org.apache.spark.shuffle.levee.LeakyShuffleManager

/**
 * The Levee shuffle manager a run of Spark's suites tests, as the build's execution names it in
 * `-Dlevee.spark.suites.manager` (`leaky`, the default, or `hurricane`) beside the manager's own settings.
 */
sealed abstract class ManagerUnderTest(val name: String, val loggerName: String) {

  /** How the line begins that the manager logs (through [[loggerName]]) when a driver starts it. */
  def driverStartedMessage: String

  /** Reads this JVM's tasks made through the manager's own path (leaky tables, Hurricane's bags). */
  def readsInThisJvm: Long

  /** What the reads counted by [[readsInThisJvm]] are, for a failure message. */
  def readsAre: String
}

object ManagerUnderTest {
  case object Leaky extends ManagerUnderTest("leaky", classOf[LeakyShuffleManager].getName) {
    override def driverStartedMessage: String = LeakyShuffleManager.DriverStartedMessage
    override def readsInThisJvm: Long = LeakyShuffleManager.leakyReadsInThisJvm
    override def readsAre: String = "aggregated a shuffle read in a leaky table"
  }

  /**
   * Hurricane's manager, reached by name: the older lines' smoke sets build this module without Hurricane
   * (`-Dlevee.suites.hurricane.skip=true` leaves its dependency out), so nothing here may link to it.
   */
  case object Hurricane
      extends ManagerUnderTest(
        "Hurricane",
        "org.apache.spark.shuffle.levee.HurricaneShuffleManager"
      ) {
    private lazy val companion: AnyRef =
      Class.forName(loggerName + "$").getField("MODULE$").get(null)
    private def call(method: String): AnyRef =
      companion.getClass.getMethod(method).invoke(companion)
    override def driverStartedMessage: String = call("DriverStartedMessage").asInstanceOf[String]
    override def readsInThisJvm: Long = call("bagReadsInThisJvm").asInstanceOf[java.lang.Long]
    override def readsAre: String = "read a shuffle partition through a Hurricane bag"
  }

  val current: ManagerUnderTest = sys.props.getOrElse("levee.spark.suites.manager", "leaky") match {
    case "leaky"     => Leaky
    case "hurricane" => Hurricane
    case other       =>
      throw new IllegalArgumentException(
        s"levee.spark.suites.manager=$other: the allowed values are leaky and hurricane"
      )
  }

  /**
   * The settings the build gave as system properties (the manager, the plugins, Levee's keys), for suites that
   * build their contexts from a SparkConf that ignores system properties.
   */
  def settings: Seq[(String, String)] =
    sys.props.toSeq.filter { case (k, _) =>
      k == "spark.shuffle.manager" || k == "spark.plugins" || k.startsWith("spark.levee.")
    }
}
