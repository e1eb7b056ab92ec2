package dev.levee.leaky.memory

import java.lang.management.ManagementFactory

import com.sun.management.HotSpotDiagnosticMXBean

/**
 * The page size when `spark.levee.leaky.pageSize` is `auto`: 1 MiB, except under G1, where it
 * stays just under half a heap region. G1 puts any array of half a region or more in humongous
 * regions of its own, rounded up to whole regions: on a small executor (a 64 MB heap has 1 MiB
 * regions) every 1 MiB page would take two regions, doubling the table's real footprint and
 * killing the executor where the table's own accounting still saw room. Measured: leaky at DMR
 * 0.6 on a 64 MB heap finished under ParallelGC and lost its executor under G1.
 */
object PageSizing {
  val DefaultBytes: Int = 1 << 20

  /** Array header and alignment, so that header plus payload stay below half a region. */
  private val ArrayOverhead = 64

  def auto(): Int = g1RegionBytes().fold(DefaultBytes)(forRegion)

  /** The auto page size for a G1 heap with `regionBytes` regions. */
  def forRegion(regionBytes: Long): Int =
    math.min(DefaultBytes.toLong, regionBytes / 2 - ArrayOverhead).toInt

  private def g1RegionBytes(): Option[Long] =
    try {
      val hotSpot = ManagementFactory.getPlatformMXBean(classOf[HotSpotDiagnosticMXBean])
      if (hotSpot.getVMOption("UseG1GC").getValue.toBoolean) {
        Some(hotSpot.getVMOption("G1HeapRegionSize").getValue.toLong).filter(_ > 0)
      } else None
    } catch {
      // Not HotSpot: keep the default.
      case _: RuntimeException => None
    }
}
