package dev.levee.bench.spark.leaky

import java.nio.file.{Files, Path}
import java.util

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration

import dev.levee.bench.SuiteContext
import dev.levee.bench.gen.{DatasetWriter, Datasets}

/**
 * The generated inputs of a sweep: per dataset, the main `key<TAB>value` text (groupBy input, join's left side) and
 * a tenth as many records with uniform keys and another seed (join's right side). Five-digit keys (90,000 of them)
 * and 12-character values: the leaky buffer paper's artificial data, with keys uniform or Zipf-distributed.
 *
 * The right side is uniform for every dataset, so a Zipf join is a skewed fact side meeting a dimension-like side.
 * With Zipf keys on both sides the hot keys meet in a product of billions of pairs (the top key alone: ~167,000 x
 * ~17,000 at 2M records), which neither stock nor leaky finished at any heap: a point that measures nothing.
 * Inputs are kept under `.levee/bench-leaky` and reused when a finished one with the same name exists.
 */
final case class LeakyInput(dataset: String, main: Path, right: Path, mainBytes: Long)

object LeakyInputs {

  private val Options = Map("keys" -> "90000", "value-size" -> "fixed:12")
  private val MainSeed = 7L
  private val RightSeed = 8L
  private val RightDataset = "uniform"

  def prepare(base: Path, dataset: String, records: Long, context: SuiteContext): LeakyInput = {
    val main =
      generate(base.resolve(s"$dataset-$records-s$MainSeed"), dataset, MainSeed, records, context)
    val rightRecords = math.max(1, records / 10)
    val right = generate(
      base.resolve(s"$RightDataset-$rightRecords-s$RightSeed"),
      RightDataset,
      RightSeed,
      rightRecords,
      context
    )
    LeakyInput(dataset, main, right, partBytes(main))
  }

  def partBytes(dir: Path): Long = {
    val files = Files.list(dir)
    try
      files
        .iterator()
        .asScala
        .filter(_.getFileName.toString.startsWith("part-"))
        .map(Files.size(_))
        .sum
    finally files.close()
  }

  private def generate(
      dir: Path,
      dataset: String,
      seed: Long,
      records: Long,
      context: SuiteContext
  ): Path = {
    if (Files.exists(dir.resolve(DatasetWriter.MANIFEST))) return dir
    val options = new util.HashMap[String, String](Options.asJava)
    val plan = new DatasetWriter.Plan(dir.toUri.toString, records, 4, 2, true)
    val progress = context.progress(s"generate $dataset input (seed $seed)", records, "records")
    try
      new DatasetWriter(new Configuration()).write(
        dataset,
        seed,
        Datasets.builtIn().configure(dataset, seed, options),
        options,
        plan,
        progress
      )
    finally progress.close()
    dir
  }
}
