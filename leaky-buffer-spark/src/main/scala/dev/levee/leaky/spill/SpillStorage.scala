package dev.levee.leaky.spill

import java.io.{File, InputStream, OutputStream}

/**
 * Where spill runs go. On an executor this is Spark's own local dirs, compression and
 * encryption (see org.apache.spark.shuffle.levee.SparkSpillStorage), so spilled values are
 * protected exactly like stock Spark's spills.
 */
trait SpillStorage {
  def create(): SpillFile
}

/** One spill run on local disk and how to wrap its raw streams. */
final class SpillFile(
    val file: File,
    wrapOut: OutputStream => OutputStream,
    wrapIn: InputStream => InputStream
) {
  def wrap(out: OutputStream): OutputStream = wrapOut(out)
  def wrap(in: InputStream): InputStream = wrapIn(in)
  def delete(): Unit = if (file.exists() && !file.delete()) file.deleteOnExit()
}
