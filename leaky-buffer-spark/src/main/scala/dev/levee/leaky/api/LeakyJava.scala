package dev.levee.leaky.api

import scala.jdk.CollectionConverters._
import scala.reflect.ClassTag

import dev.levee.leaky.implicits._
import org.apache.spark.api.java.{JavaPairRDD, Optional}
import org.apache.spark.rdd.RDD

/**
 * The leaky operators for Java: static methods on JavaPairRDDs, e.g.
 * `JavaPairRDD<K, Tuple2<V, W>> joined = LeakyJava.join(left, right);`
 */
object LeakyJava {
  private def tag[T]: ClassTag[T] = ClassTag.AnyRef.asInstanceOf[ClassTag[T]]
  private def ops[K, V](r: JavaPairRDD[K, V]) = new LeakyPairRDDFunctions(r.rdd)(tag[K])
  private def mapValues[K, A, B](rdd: RDD[(K, A)])(f: A => B): RDD[(K, B)] =
    rdd.mapPartitions(_.map { case (k, a) => (k, f(a)) }, preservesPartitioning = true)
  private def opt[T](o: Option[T]): Optional[T] = o.fold(Optional.empty[T]())(Optional.of(_))

  def groupByKey[K, V](rdd: JavaPairRDD[K, V]): JavaPairRDD[K, java.lang.Iterable[V]] =
    JavaPairRDD.fromRDD(
      mapValues(ops(rdd).leakyGroupByKey())((vs: Iterable[V]) => vs.asJava: java.lang.Iterable[V])
    )(tag[K], tag)

  def cogroup[K, V, W](
      left: JavaPairRDD[K, V],
      right: JavaPairRDD[K, W]
  ): JavaPairRDD[K, (java.lang.Iterable[V], java.lang.Iterable[W])] =
    JavaPairRDD.fromRDD(mapValues(ops(left).leakyCogroup(right.rdd)) { case (vs, ws) =>
      (vs.asJava: java.lang.Iterable[V], ws.asJava: java.lang.Iterable[W])
    })(tag[K], tag)

  def join[K, V, W](left: JavaPairRDD[K, V], right: JavaPairRDD[K, W]): JavaPairRDD[K, (V, W)] =
    JavaPairRDD.fromRDD(ops(left).leakyJoin(right.rdd))(tag[K], tag)

  def leftOuterJoin[K, V, W](
      left: JavaPairRDD[K, V],
      right: JavaPairRDD[K, W]
  ): JavaPairRDD[K, (V, Optional[W])] =
    JavaPairRDD.fromRDD(mapValues(ops(left).leakyLeftOuterJoin(right.rdd)) { case (v, w) =>
      (v, opt(w))
    })(tag[K], tag)

  def rightOuterJoin[K, V, W](
      left: JavaPairRDD[K, V],
      right: JavaPairRDD[K, W]
  ): JavaPairRDD[K, (Optional[V], W)] =
    JavaPairRDD.fromRDD(mapValues(ops(left).leakyRightOuterJoin(right.rdd)) { case (v, w) =>
      (opt(v), w)
    })(tag[K], tag)

  def fullOuterJoin[K, V, W](
      left: JavaPairRDD[K, V],
      right: JavaPairRDD[K, W]
  ): JavaPairRDD[K, (Optional[V], Optional[W])] =
    JavaPairRDD.fromRDD(mapValues(ops(left).leakyFullOuterJoin(right.rdd)) { case (v, w) =>
      (opt(v), opt(w))
    })(tag[K], tag)
}
