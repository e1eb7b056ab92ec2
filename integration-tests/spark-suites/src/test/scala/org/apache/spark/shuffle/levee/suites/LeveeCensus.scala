package org.apache.spark.shuffle.levee.suites

import org.apache.spark.SparkFunSuite
import org.scalactic.source.Position
import org.scalatest.{Args, Status, Tag}

/**
 * Runs one of Spark's own suites with a Levee shuffle manager ([[ManagerUnderTest]]: the leaky manager, or
 * Hurricane's), and makes it prove it: every SparkContext a test (or the suite's set-up) starts must run that
 * manager ([[SparkContextCensus]]), the suite must start at least one, and where its contexts run tasks in this
 * JVM, the manager's own read path (leaky tables, Hurricane's bags) must really have served some reads.
 *
 * CI runs the tests named in [[ciTests]] (a fast, representative subset; `None`: all of them);
 * `-Dlevee.spark.suites=full` runs every test of the suite except those in [[notLeaky]], each excluded for a stated
 * reason.
 */
trait LeveeCensus extends SparkFunSuite {

  /** Tests CI runs; `None` for all but [[ciSkips]]. */
  protected def ciTests: Option[Set[String]]

  /** Tests CI leaves to the full run (slow, and not about the shuffle). */
  protected def ciSkips: Set[String] = Set.empty

  /** Tests whose contexts cannot get the manager from outside, with the reason; never run here. */
  protected def notLeaky: Map[String, String] = Map.empty

  /** Whether tasks of this suite run in the test JVM (local mode), so the manager's reads are countable here. */
  protected def readsInThisJvm: Boolean = true

  private def full: Boolean = sys.props.get("levee.spark.suites").contains("full")

  private def selected(testName: String): Boolean =
    !notLeaky.contains(testName) &&
      (full || (ciTests.forall(_.contains(testName)) && !ciSkips.contains(testName)))

  // Spark's suites register their tests in their constructors, through this method (called before this trait's
  // fields exist: it uses only defs): a selected test's body is wrapped in a census, any other is registered as
  // ignored. (SparkFunSuite's withFixture is final.)
  override protected def test(testName: String, testTags: Tag*)(testBody: => Any)(implicit
      pos: Position
  ): Unit =
    if (selected(testName)) {
      super.test(testName, testTags: _*) {
        val before = SparkContextCensus.now()
        val result = testBody
        SparkContextCensus.check(before, s"'$testName'")
        result
      }
    } else ignore(testName, testTags: _*)(testBody)

  override def run(testName: Option[String], args: Args): Status = {
    val before = SparkContextCensus.now()
    val manager = ManagerUnderTest.current
    val reads = manager.readsInThisJvm
    val unknown = (ciTests.getOrElse(Set.empty) ++ ciSkips ++ notLeaky.keySet) -- testNames
    require(unknown.isEmpty, s"$suiteName has no tests named ${unknown.mkString("; ")}")
    val status = super.run(testName, args)
    status.waitUntilCompleted()
    val started = SparkContextCensus.check(before, suiteName)
    if (testNames.exists(selected) && testName.isEmpty) {
      if (started.contexts == 0) throw new AssertionError(s"$suiteName started no SparkContext")
      if (readsInThisJvm && manager.readsInThisJvm == reads) {
        throw new AssertionError(s"$suiteName never ${manager.readsAre}")
      }
    }
    status
  }
}
