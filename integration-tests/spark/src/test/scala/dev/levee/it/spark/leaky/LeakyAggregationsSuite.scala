package dev.levee.it.spark.leaky

import scala.collection.mutable

import org.apache.spark.Partitioner
import org.apache.spark.rdd.RDD
import org.scalatest.funsuite.AnyFunSuite

import dev.levee.it.spark.{SharedSparkCluster, SparkTopology}
import dev.levee.it.spark.ShuffleWorkloads._
import dev.levee.leaky.LeakyKeys

/**
 * Every aggregation the shuffle manager can take over, on the inputs that break hash aggregations: a key class with
 * its own equals/hashCode, null keys, null values, byte-array keys (identity-equal, as in stock), mutable combiners
 * and a zero value that is a mutable collection. Each result is compared with the same computation on plain Scala
 * collections on the driver (what stock Spark computes), with forced spills so the table's merge path runs too.
 */
abstract class LeakyAggregationsSuite extends AnyFunSuite with SharedSparkCluster {
  import LeakyAggregationsSuite._

  protected def aggregation: String
  protected def serializer: String

  override protected def sparkSettings: Map[String, String] = Map(
    "spark.shuffle.manager" -> LeakyExecutorProbe.ManagerClass,
    "spark.serializer" -> serializer,
    LeakyKeys.Aggregation -> aggregation,
    // Every table (and Spark's own maps) spills every 700 records: spill runs and the merge are exercised.
    "spark.shuffle.spill.numElementsForceSpillThreshold" -> "700"
  )

  private lazy val records: Vector[(NoCaseKey, String)] = {
    val rnd = new scala.util.Random(41)
    Vector.tabulate(6000) { i =>
      val key =
        if (i % 53 == 0) null
        else {
          val name = s"key-${rnd.nextInt(400)}"
          NoCaseKey(
            if (rnd.nextBoolean()) name.toUpperCase else name
          ) // equal keys, different bytes
        }
      key -> (if (i % 31 == 0) null else s"v${rnd.nextInt(50)}")
    }
  }

  private def input: RDD[(NoCaseKey, String)] = sc.parallelize(records, 4)
  private val R = 3

  private def reference[C](fold: Seq[String] => C): Map[NoCaseKey, C] =
    records.groupMap(_._1)(_._2).view.mapValues(fold).toMap

  test("groupByKey") {
    val out = input.groupByKey(R).mapValues(vs => multiset(vs)).collect()
    assert(out.length == out.map(_._1).distinct.length)
    assert(out.toMap == reference(vs => multiset(vs)))
  }

  test("reduceByKey with null values") {
    val min =
      (a: String, b: String) => if (a == null) b else if (b == null) a else if (a < b) a else b
    val out = input.reduceByKey(min, R).collect().toMap
    assert(out == reference(_.reduce(min)))
  }

  test("aggregateByKey with a mutable set as the zero value") {
    val out = input
      .aggregateByKey(mutable.HashSet.empty[String], R)(_ += text(_), _ ++= _)
      .mapValues(_.toSet)
      .collect()
      .toMap
    assert(out == reference(_.map(text).toSet))
  }

  test("combineByKey with mutable buffers, with and without map-side combine") {
    for (mapSide <- Seq(true, false)) withClue(s"mapSideCombine=$mapSide: ") {
      val out = input
        .combineByKey[mutable.ArrayBuffer[String]](
          (v: String) => mutable.ArrayBuffer(v),
          (b: mutable.ArrayBuffer[String], v: String) => b += v,
          (a: mutable.ArrayBuffer[String], b: mutable.ArrayBuffer[String]) => a ++= b,
          new org.apache.spark.HashPartitioner(R),
          mapSideCombine = mapSide
        )
        .mapValues(b => multiset(b))
        .collect()
        .toMap
      assert(out == reference(vs => multiset(vs)))
    }
  }

  test("foldByKey with a mutable buffer as the zero value") {
    val out = input
      .mapValues(v => mutable.ArrayBuffer(text(v)))
      .foldByKey(mutable.ArrayBuffer.empty[String], R)(_ ++= _)
      .mapValues(b => multiset(b))
      .collect()
      .toMap
    assert(out == reference(vs => multiset(vs.map(text))))
  }

  test("countByKey and distinct, null key included") {
    assert(input.countByKey().toMap == reference(_.size.toLong))
    val keys = input.keys.distinct(R).collect()
    assert(keys.length == keys.distinct.length && keys.toSet == records.map(_._1).toSet)
    assert(keys.contains(null))
  }

  test("byte-array keys group by identity, as in stock Spark") {
    // Arrays are equal only to themselves: every record is its own group in stock Spark, whatever the bytes.
    val bytes = records.take(2000).zipWithIndex.map { case ((_, v), i) =>
      Array[Byte]((i % 7).toByte, (i % 3).toByte) -> text(v)
    }
    val rdd = sc.parallelize(bytes, 4)
    val expected = multiset(bytes.map { case (k, v) => (k.toSeq, Seq(v)) })
    val grouped = rdd.groupByKey(new FirstBytePartitioner(R)).mapValues(_.toSeq).collect()
    assert(multiset(grouped.toSeq.map { case (k, vs) => (k.toSeq, vs) }) == expected)
    val combined = rdd
      .combineByKey[List[String]](
        (v: String) => List(v),
        (l: List[String], v: String) => v :: l,
        (a: List[String], b: List[String]) => a ::: b,
        new FirstBytePartitioner(R),
        mapSideCombine = false
      )
      .collect()
    assert(multiset(combined.toSeq.map { case (k, vs) => (k.toSeq, vs.toSeq) }) == expected)
  }
}

object LeakyAggregationsSuite {

  /** A value as text, null included (closures call it: it must not live in the suite). */
  def text(v: String): String = String.valueOf(v)

  /** A user key whose equality ignores case: equal keys have different bytes. */
  final class NoCaseKey(val name: String) extends Serializable {
    override def equals(o: Any): Boolean = o match {
      case k: NoCaseKey => k.name.equalsIgnoreCase(name)
      case _            => false
    }
    override def hashCode(): Int = name.toLowerCase.hashCode
    override def toString: String = s"NoCaseKey($name)"
  }

  object NoCaseKey {
    def apply(name: String): NoCaseKey = new NoCaseKey(name)
  }

  /** Spark refuses HashPartitioner for array keys; users of array keys bring their own. */
  final class FirstBytePartitioner(partitions: Int) extends Partitioner {
    override def numPartitions: Int = partitions
    override def getPartition(key: Any): Int = key match {
      case b: Array[Byte] if b.nonEmpty => (b(0) & 0xff) % partitions
      case _                            => 0
    }
  }
}

/** Every aggregation through the leaky table, in executor JVMs, Java serialization. */
class LeakyAggregationsTableSuite extends LeakyAggregationsSuite {
  override protected def topology: SparkTopology = SparkTopology.TwoExecutorJvms
  override protected def aggregation: String = "table"
  override protected def serializer: String = "org.apache.spark.serializer.JavaSerializer"
  override protected def sparkSettings: Map[String, String] =
    super.sparkSettings + ("spark.executor.memory" -> "512m")

  test("the executors ran the leaky table (not only Spark's map)") {
    val reports = LeakyExecutorProbe.reports(sc)
    assert(
      reports.exists(_.tableLoaded),
      s"no executor loaded ${LeakyExecutorProbe.TableClass}: $reports"
    )
  }
}

/** The default route (growing combiners in the table, scalar ones on arrival), Kryo, in the driver JVM. */
class LeakyAggregationsAutoSuite extends LeakyAggregationsSuite {
  override protected def topology: SparkTopology = SparkTopology.LocalTwoThreads
  override protected def aggregation: String = "auto"
  override protected def serializer: String = "org.apache.spark.serializer.KryoSerializer"

  test("the growing combiners went through the table, in this JVM") {
    assert(org.apache.spark.shuffle.levee.LeakyShuffleManager.leakyReadsInThisJvm > 0)
  }
}
