package dev.levee.hurricane

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, ObjectInputStream, ObjectOutputStream}
import java.util.{Base64, Map => JMap}
import java.util.concurrent.ConcurrentHashMap

import scala.jdk.CollectionConverters._

import org.apache.spark.{SparkContext, TaskContext}
import org.apache.spark.util.LongAccumulator

/**
 * Hurricane's per-task counts as named accumulators, which Spark's UI shows on each stage page (the stage's total
 * and a value per task) and listeners read from `TaskInfo.accumulables`.
 *
 * The driver plugin registers one accumulator per counter and hands their serialized copies to every executor in
 * the plugin's init map. A task deserializes them at its first bag read, inside its own thread, so Spark registers
 * the copies with the task exactly as it does the accumulators of a closure: their values travel with the task's
 * end and are added to the driver's only when the attempt succeeds (a failed or killed attempt's work is redone).
 */
object TaskCounters {
  sealed abstract class Counter(val name: String, val doc: String)

  case object Chunks
      extends Counter(
        "hurricane.chunks",
        "chunks of map output the task read from a bag: as owner, as clone, or as an owner reading a clone's chunks"
      )
  case object ChunksAdopted
      extends Counter(
        "hurricane.chunks.adopted",
        "chunks an owner read in a clone's stead (the clone was given up or its cached partial was lost)"
      )
  case object ClonesMerged
      extends Counter(
        "hurricane.clones.merged",
        "clones' cached partials an owner merged into its output"
      )
  case object OwnerWaitMs
      extends Counter(
        "hurricane.owner.wait.ms",
        "time an owner, its own chunks read, waited for its running clones to finish their last window"
      )
  case object MergeMs
      extends Counter(
        "hurricane.merge.ms",
        "time from an owner's first pull on its clones' partials to the last one drained: fetching and merging " +
          "them; every merge is lazy (an aggregation's goes a hash bucket at a time), so it also covers the " +
          "task's consumption of the merged records"
      )

  val All: Vector[Counter] = Vector(Chunks, ChunksAdopted, ClonesMerged, OwnerWaitMs, MergeMs)

  /** The init-map entry that carries the serialized accumulators to the executors. */
  private[hurricane] val InitKey = "hurricane.taskCounters"

  /**
   * In the driver: one accumulator per counter, registered with `sc` under its name; the caller keeps them (the
   * accumulator registry holds them weakly) and returns `initMap` from its plugin init.
   */
  private[hurricane] final class Registered(sc: SparkContext) {
    val accumulators: Vector[LongAccumulator] = All.map(c => sc.longAccumulator(c.name))

    def initMap: JMap[String, String] = {
      val bytes = new ByteArrayOutputStream()
      val out = new ObjectOutputStream(bytes)
      // Spark's own write of a registered accumulator: a zero copy that keeps its id and name.
      out.writeObject(accumulators.toArray)
      out.close()
      Map(InitKey -> Base64.getEncoder.encodeToString(bytes.toByteArray)).asJava
    }
  }

  @volatile private var serialized: Array[Byte] = _

  /** In an executor: the copies the driver plugin sent (no entry when the driver's plugin is older or absent). */
  private[hurricane] def attach(extraConf: JMap[String, String]): Unit =
    serialized = Option(extraConf.get(InitKey)).map(Base64.getDecoder.decode).orNull

  private val byAttempt = new ConcurrentHashMap[Long, Task]()

  /** The running attempt's counters, registered with it at the first call; counts go nowhere without the plugin. */
  def of(context: TaskContext): Task = {
    val bytes = serialized
    if (bytes == null || context == null) Task.Unregistered
    else
      byAttempt.computeIfAbsent(
        context.taskAttemptId(),
        attempt => {
          context.addTaskCompletionListener[Unit](_ => byAttempt.remove(attempt))
          // Deserialized in the task's thread: each copy registers itself with this task.
          val in = new ObjectInputStream(new ByteArrayInputStream(bytes))
          val copies =
            try in.readObject().asInstanceOf[Array[LongAccumulator]]
            finally in.close()
          new Task(All.zip(copies).toMap)
        }
      )
  }

  /** One task attempt's counters. */
  final class Task private[TaskCounters] (accumulators: Map[Counter, LongAccumulator]) {
    private val residues = scala.collection.mutable.Map.empty[Counter, Long]

    def add(counter: Counter, n: Long): Unit = accumulators.get(counter).foreach(_.add(n))

    /** Adds `nanos` to a millisecond counter, carrying what is below a millisecond to the next addition. */
    def addNanos(counter: Counter, nanos: Long): Unit = synchronized {
      val total = residues.getOrElse(counter, 0L) + nanos
      residues(counter) = total % 1000000L
      add(counter, total / 1000000L)
    }

    def timed[T](counter: Counter)(body: => T): T = {
      val start = System.nanoTime()
      try body
      finally addNanos(counter, System.nanoTime() - start)
    }

    /**
     * `partials` timed as one span under `counter`, from now to the moment its last stream is drained: each
     * stream's end adds the time since the previous end, so the total needs no completion hook.
     */
    def span[A](counter: Counter, partials: Iterator[Iterator[A]]): Iterator[Iterator[A]] = {
      var mark = System.nanoTime()
      def lap(): Unit = {
        val now = System.nanoTime()
        addNanos(counter, now - mark)
        mark = now
      }
      partials.map { stream =>
        new Iterator[A] {
          private var open = true
          override def hasNext: Boolean = {
            val more = stream.hasNext
            if (!more && open) { open = false; lap() }
            more
          }
          override def next(): A = stream.next()
        }
      }
    }
  }

  object Task {
    val Unregistered: Task = new Task(Map.empty)
  }
}
