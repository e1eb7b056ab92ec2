package org.apache.spark.shuffle.levee

import dev.levee.hurricane.HurricanePlugin
import org.apache.spark.SparkConf

/**
 * Hurricane switched on with its clone decisions scaled down for test-sized data: decisions 300 ms apart instead of
 * 2 s, chunks of 1 KiB, two per round trip, and a 50 ms launch cost.
 */
object HurricaneTestConf {
  def scaledDown(conf: SparkConf): SparkConf =
    conf
      .set("spark.plugins", classOf[HurricanePlugin].getName)
      .set("spark.shuffle.manager", classOf[HurricaneShuffleManager].getName)
      .set("spark.levee.hurricane.chunk.targetBytes", "1k")
      .set("spark.levee.hurricane.window", "2")
      .set("spark.levee.hurricane.clone.intervalMs", "300")
      .set("spark.levee.hurricane.clone.launchCostMs", "50")
}
