package dev.levee.leaky.aggregate

import scala.collection.mutable

import dev.levee.leaky.LeakyConf
import org.scalatest.funsuite.AnyFunSuite

class AggregationRouteSuite extends AnyFunSuite {
  import AggregationRoute._
  import CombinerShape._

  private val loader = getClass.getClassLoader
  private def shapeOf(name: String) = CombinerShape.ofClassName(Some(name), loader)

  test(
    "combiner classes: collections grow, numbers and strings do not, the rest is not told by the class"
  ) {
    assert(shapeOf("org.apache.spark.util.collection.CompactBuffer") == Growing) // groupByKey
    assert(shapeOf(classOf[mutable.HashSet[_]].getName) == Growing)
    assert(shapeOf(classOf[java.util.ArrayList[_]].getName) == Growing)
    assert(shapeOf(classOf[java.util.HashMap[_, _]].getName) == Growing)
    assert(shapeOf(classOf[Array[Int]].getName) == Growing)
    assert(shapeOf(classOf[List[_]].getName) == Growing)
    Seq("long", "int", "double", "java.lang.Long", "java.lang.String", "scala.runtime.Null$")
      .foreach(n => assert(shapeOf(n) == Fixed, n))
    Seq("java.lang.Object", "scala.Tuple2", "com.example.Missing")
      .foreach(n => assert(shapeOf(n) == Unknown, n))
    assert(CombinerShape.ofClassName(None, loader) == Unknown)
  }

  test("combiner values: collections, and tuples holding one, grow") {
    assert(ofValue(mutable.HashSet("a")) == Growing)
    assert(ofValue((1L, mutable.ArrayBuffer(1))) == Growing)
    assert(ofValue(Some(List(1))) == Growing)
    assert(ofValue((1L, 2.0)) == Fixed)
    assert(ofValue(null) == Fixed)
    assert(ofValue("a string is one object") == Fixed)
  }

  test(
    "auto: uncombined to the table, map-side-combined collections on arrival then the table, scalar combiners on arrival, table mode takes all"
  ) {
    val auto = LeakyConf.AutoAggregation
    assert(ofDependency(auto, mapSideCombine = false, Growing).contains(Table))
    assert(ofDependency(auto, mapSideCombine = true, Growing).contains(ArrivalThenTable))
    assert(ofDependency(auto, mapSideCombine = true, Fixed).contains(OnArrival))
    assert(ofDependency(auto, mapSideCombine = false, Fixed).contains(OnArrival))
    assert(ofDependency(auto, mapSideCombine = false, Unknown).contains(Table))
    assert(ofDependency(auto, mapSideCombine = true, Unknown).isEmpty)
    assert(ofFirstCombiner(Some(mutable.HashSet(1))) == ArrivalThenTable)
    assert(ofFirstCombiner(Some((1L, 2L))) == OnArrival)
    assert(ofFirstCombiner(None) == OnArrival)
    for (mapSide <- Seq(true, false); shape <- Seq(Growing, Fixed, Unknown))
      assert(ofDependency(LeakyConf.TableAggregation, mapSide, shape).contains(Table))
  }
}
