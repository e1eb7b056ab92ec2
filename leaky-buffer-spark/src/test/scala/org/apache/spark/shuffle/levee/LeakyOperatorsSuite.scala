package org.apache.spark.shuffle.levee

import dev.levee.leaky.{HeapProbeValue, TestData}
import dev.levee.leaky.TestData._
import dev.levee.leaky.api.LeakyJava
import dev.levee.leaky.implicits._
import org.apache.spark.{SparkConf, TaskContext}
import org.apache.spark.api.java.JavaPairRDD

/**
 * Every leaky operator against stock Spark on the same data, compared as multisets of values
 * per key. Aggregations go through LeakyShuffleManager (checked: it must have taken the leaky
 * path); the reference is the same computation on plain Scala collections. Joins compare with
 * Spark's own join operators in the same context (CoGroupedRDD reads pass through unchanged).
 */
abstract class LeakyOperatorsSuite extends LeakySparkSuite {
  // Two attempts per task, so the retry test can fail a first attempt on purpose.
  override protected def master: String = "local[2,2]"

  private lazy val uniform = TestData.uniformPairs(8000, 300, seed = 1)
  private lazy val zipfian = TestData.zipfPairs(8000, 1000, seed = 2)

  /** Runs `job` and returns how many of its shuffle reads went through a leaky table. */
  private def tableReads(job: => Unit): Long = { val before = leakyReads; job; leakyReads - before }

  private def checkAggregations[K: scala.reflect.ClassTag](data: Seq[(K, String)]): Unit = {
    val rdd = sc.parallelize(data, 4)
    val expected = pairMultisets(data)

    // groupByKey keeps every value: the table's case (3 reduce tasks, 3 table reads).
    assert(tableReads {
      assert(multisets(rdd.groupByKey(3).collect().toSeq) == expected, "groupByKey")
    } == 3)

    // A sum per key is one small object per key: combined on arrival by Spark's own map, as stock does.
    assert(tableReads {
      val sums = rdd.mapValues(_.length.toLong).reduceByKey(_ + _, 3).collect().toMap
      assert(sums == data.groupBy(_._1).map { case (k, vs) => k -> vs.map(_._2.length.toLong).sum })
    } == 0)

    // A set per key grows with the values, but these few kB of sets stay far below the arrival bound: combined on
    // arrival, as stock does (ArrivalCombinerSuite moves them into the table).
    assert(tableReads {
      val agg = rdd.aggregateByKey(Set.empty[String], 2)(_ + _, _ ++ _).collect().toMap
      assert(agg == data.groupBy(_._1).map { case (k, vs) => k -> vs.map(_._2).toSet })
    } == 0)

    assert(tableReads {
      val comb = rdd
        .combineByKey[List[String]](
          (v: String) => List(v),
          (c: List[String], v: String) => v :: c,
          (a: List[String], b: List[String]) => a ::: b,
          new org.apache.spark.HashPartitioner(3),
          mapSideCombine = false
        )
        .collect()
        .toSeq
      assert(multisets(comb) == expected, "combineByKey without map-side combine")
    } == 3)

    // A generic combiner type (no class tag): the first combiner decides. Tuples of numbers: on arrival.
    assert(tableReads {
      val stats = rdd
        .combineByKey(
          (v: String) => (1L, v.length.toLong),
          (c: (Long, Long), v: String) => (c._1 + 1, c._2 + v.length),
          (a: (Long, Long), b: (Long, Long)) => (a._1 + b._1, a._2 + b._2),
          3
        )
        .collect()
        .toMap
      assert(stats == data.groupBy(_._1).map { case (k, vs) =>
        k -> (vs.size.toLong, vs.map(_._2.length.toLong).sum)
      })
    } == 0)
  }

  test("aggregations equal stock on uniform random keys") { checkAggregations(uniform) }
  test("aggregations equal stock on Zipf-skewed keys") { checkAggregations(zipfian) }

  test("a sort-ordered shuffle passes through to the delegate") {
    val before = leakyReads
    val sorted = sc.parallelize(uniform, 3).sortByKey(numPartitions = 2).keys.collect()
    assert(sorted.toSeq == uniform.map(_._1).sorted)
    assert(leakyReads == before)
  }

  test("leakyGroupByKey and leakyCogroup equal stock") {
    val left = sc.parallelize(zipfian, 3)
    val right = sc.parallelize(TestData.zipfPairs(3000, 1500, seed = 3), 2)
    assert(multisets(left.leakyGroupByKey(4).collect().toSeq) == pairMultisets(zipfian))
    def flat[K](cg: Array[(K, (Iterable[String], Iterable[String]))]) =
      multisets(cg.toSeq.map { case (k, (a, b)) => (k, a.map("L" + _) ++ b.map("R" + _)) })
    assert(flat(left.leakyCogroup(right, 3).collect()) == flat(left.cogroup(right, 3).collect()))
  }

  test("joins equal stock: many-to-many, one-sided keys, empty and large values") {
    // keys 0..149 left, 100..249 right: one-sided keys both ways; ~25 values per key each side
    val left = sc.parallelize(TestData.uniformPairs(3750, 150, seed = 4), 3)
    val right = sc.parallelize(
      TestData.uniformPairs(3750, 150, seed = 5).map { case (k, v) => (k + 100, v) },
      2
    )
    def same[V](leaky: Array[(Int, V)], stock: Array[(Int, V)], what: String) =
      assert(pairMultisets(leaky.toSeq) == pairMultisets(stock.toSeq), what)
    same(left.leakyJoin(right, 4).collect(), left.join(right, 4).collect(), "join")
    same(
      left.leakyLeftOuterJoin(right, 4).collect(),
      left.leftOuterJoin(right, 4).collect(),
      "left outer"
    )
    same(
      left.leakyRightOuterJoin(right, 4).collect(),
      left.rightOuterJoin(right, 4).collect(),
      "right outer"
    )
    same(
      left.leakyFullOuterJoin(right).collect(),
      left.fullOuterJoin(right).collect(),
      "full outer"
    )
    assert(
      left
        .leakyJoin(right, 4)
        .count() > 0 && left.leakyLeftOuterJoin(right).values.filter(_._2.isEmpty).count() > 0
    )
  }

  test("co-partitioned inputs are joined without a new shuffle") {
    val part = new org.apache.spark.HashPartitioner(3)
    val left = sc.parallelize(uniform, 2).partitionBy(part)
    val right = sc.parallelize(TestData.uniformPairs(3000, 700, seed = 6), 2).partitionBy(part)
    val joined = left.leakyJoin(right, part)
    assert(joined.partitioner.contains(part))
    assert(joined.dependencies.forall(_.isInstanceOf[org.apache.spark.OneToOneDependency[_]]))
    assert(
      pairMultisets(joined.collect().toSeq) == pairMultisets(left.join(right, part).collect().toSeq)
    )
  }

  test("Java API equals stock") {
    val left = JavaPairRDD.fromRDD(sc.parallelize(TestData.uniformPairs(3000, 100, seed = 7), 2))
    val right = JavaPairRDD.fromRDD(sc.parallelize(TestData.uniformPairs(3000, 150, seed = 8), 2))
    import scala.jdk.CollectionConverters._
    def pairs[V](r: JavaPairRDD[Int, V]) = r.collect().asScala.toSeq.map(t => (t._1, t._2))
    assert(
      pairMultisets(pairs(LeakyJava.join(left, right))) == pairMultisets(pairs(left.join(right)))
    )
    assert(
      pairMultisets(pairs(LeakyJava.fullOuterJoin(left, right))) ==
        pairMultisets(pairs(left.fullOuterJoin(right)))
    )
    val grouped = pairs(LeakyJava.groupByKey(left)).map { case (k, vs) => (k, vs.asScala) }
    assert(multisets(grouped) == pairMultisets(pairs(left)))
  }

  test("a reduce task that fails its first attempt is retried and the result is right") {
    drainListener()
    val failuresBefore = failedTasks.get()
    val data = uniform
    val grouped = sc.parallelize(data, 3).groupByKey(2).mapPartitions { it =>
      val ctx = TaskContext.get()
      val first = it.next() // the leaky table is fully built at this point
      if (ctx.partitionId() == 0 && ctx.attemptNumber() == 0) {
        throw new IllegalStateException("planned failure of the first attempt")
      }
      Iterator(first) ++ it
    }
    assert(multisets(grouped.collect().toSeq) == pairMultisets(data))
    drainListener()
    assert(failedTasks.get() - failuresBefore == 1)
  }

  test("structural: live value objects scale with distinct keys, not records") {
    val records = 120000
    val distinct = 40
    val data = sc.parallelize(0 until records, 2).map(i => (i % distinct, HeapProbeValue(s"p$i")))
    val probe: Iterator[(Int, Iterable[HeapProbeValue])] => Iterator[Long] = it => {
      val first = it.next() // all input is inserted; one group is alive
      val live = HeapHistogram.instances(classOf[HeapProbeValue].getName)
      val rest = it.size // drain, so both sides release their memory normally
      Iterator(live, 1L + rest) // live objects, number of groups
    }
    val leaky = data.leakyGroupByKey(1).mapPartitions(probe).collect()
    assert(leaky(1) == distinct)
    val stock =
      data.cogroup(data.filter(_ => false), 1).mapValues(_._1).mapPartitions(probe).collect()
    val groupSize = records / distinct
    // The leaky table holds values as bytes: only the emitted group is objects.
    assert(leaky(0) <= 2L * groupSize, s"leaky live values ${leaky(0)}")
    // Stock CoGroupedRDD holds every value of the partition as an object.
    assert(stock(0) >= records, s"stock live values ${stock(0)}")
    info(
      s"live HeapProbeValue objects after insertion: leaky ${leaky(0)}, stock ${stock(0)} " +
        s"($records records, $distinct keys)"
    )
  }

  test("peak execution memory is reported in task metrics") {
    drainListener()
    peakMemory.set(0)
    sc.parallelize(uniform, 2).groupByKey(2).count()
    drainListener()
    assert(peakMemory.get() > 0)
  }
}

class LeakyOperatorsJavaSerializerSuite extends LeakyOperatorsSuite

class LeakyOperatorsKryoSuite extends LeakyOperatorsSuite {
  override protected def extraConf(conf: SparkConf): SparkConf =
    conf.set("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
}
