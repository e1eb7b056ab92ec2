package dev.levee.bench.spark.leaky

import scala.jdk.CollectionConverters._

import dev.levee.bench.cli.{BadArgumentException, OptionsCommand}
import org.scalatest.funsuite.AnyFunSuite

class LeakySweepPlanSuite extends AnyFunSuite {
  private def plan(args: String*): LeakySweepPlan =
    LeakySweepPlan.parse(OptionsCommand.parse(new LeakySweepPlan.Options, args.asJava))

  test(
    "stock and leaky in the quick preset, the DataFrame peers too in the full one; no leaky settings"
  ) {
    val p = plan("--quick")
    assert(p.variants == Seq("stock", "leaky") && p.leakyConf.isEmpty && p.leakyConfParam == "")
    assert(p.clusters == 2)
    assert(plan().variants == Seq("stock", "leaky", "dataframe", "dataframe-offheap"))
    val twice = plan("--quick", "--runs-per-cluster", "3", "--ops", "groupby,reduce")
    assert(twice.jobs == 2 * 2 * 2 * 2 * 3 && twice.ops == Seq("groupby", "reduce"))
  }

  test(
    "the off-heap DataFrame variant counts off-heap memory as memory: half heap, half off-heap"
  ) {
    val s = LeakySuite.settings("dataframe-offheap", "-XX:+UseParallelGC", 128, Map.empty)
    assert(s("spark.executor.memory") == "64m" && s("spark.memory.offHeap.size") == "64m")
    assert(s("spark.memory.offHeap.enabled") == "true")
    assert(s("spark.shuffle.manager") == LeakySuite.StockManager)
    assert(s("spark.sql.adaptive.enabled") == "false")
    val onHeap = LeakySuite.settings("dataframe", "-XX:+UseParallelGC", 128, Map.empty)
    assert(
      onHeap("spark.executor.memory") == "128m" && !onHeap.contains("spark.memory.offHeap.size")
    )
    assert(
      !LeakySuite.appliesTo("dataframe", "reduce") && LeakySuite.appliesTo("dataframe", "join")
    )
  }

  test("an ablation: one variant, leaky settings recorded sorted so equal settings merge") {
    val p = plan(
      "--quick",
      "--variants",
      "leaky",
      "--leaky-conf",
      "spark.levee.leaky.memory.maxLiveFraction=1, spark.levee.leaky.memory.maxHeapFraction=0.15"
    )
    assert(p.variants == Seq("leaky") && p.clusters == 1)
    assert(
      p.leakyConfParam ==
        "spark.levee.leaky.memory.maxHeapFraction=0.15,spark.levee.leaky.memory.maxLiveFraction=1"
    )
    assert(
      LeakySuite.settings("leaky", "", 64, p.leakyConf)(
        "spark.levee.leaky.memory.maxLiveFraction"
      ) == "1"
    )
    assert(
      !LeakySuite
        .settings("stock", "", 64, p.leakyConf)
        .contains("spark.levee.leaky.memory.maxLiveFraction")
    )
  }

  test(
    "a key outside spark.levee.leaky., a bad value or an unknown variant fails naming what was wrong"
  ) {
    val outside =
      intercept[BadArgumentException](plan("--leaky-conf", "spark.executor.memory=1g")).getMessage
    assert(outside.contains("--leaky-conf") && outside.contains("spark.executor.memory=1g"))
    val badValue = intercept[BadArgumentException](
      plan("--leaky-conf", "spark.levee.leaky.memory.maxLiveFraction=2")
    ).getMessage
    assert(badValue.contains("maxLiveFraction") && badValue.contains("[0.1, 1]"))
    val typo = intercept[BadArgumentException](
      plan("--leaky-conf", "spark.levee.leaky.memory.maxLiveFracton=0.5")
    ).getMessage
    assert(typo.contains("did you mean spark.levee.leaky.memory.maxLiveFraction?"), typo)
    val overflow = intercept[BadArgumentException](
      plan("--leaky-conf", "spark.levee.leaky.spill.initialMemoryThreshold=99999999999999999999k")
    ).getMessage
    assert(overflow.contains("spark.levee.leaky.spill.initialMemoryThreshold"), overflow)
    val variant = intercept[BadArgumentException](plan("--variants", "tuned")).getMessage
    assert(
      variant.contains("tuned") && variant.contains("stock, leaky, dataframe, dataframe-offheap")
    )
  }
}
