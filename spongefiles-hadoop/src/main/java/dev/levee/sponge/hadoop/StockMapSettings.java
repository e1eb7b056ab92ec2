package dev.levee.sponge.hadoop;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * The stock map output buffer's settings, read and refused exactly as {@code
 * MapTask.MapOutputBuffer} does, so a job that stock refuses is refused here with the same message.
 */
final class StockMapSettings {
  /** The minimum permissions the ShuffleHandler needs on file.out and its index (stock's). */
  private static final FsPermission SHUFFLE_OUTPUT_PERM = new FsPermission((short) 0640);

  private StockMapSettings() {}

  /** {@code mapreduce.task.io.sort.mb} in bytes, a multiple of the per-record metadata size. */
  static int sortBufferBytes(JobConf job) throws IOException {
    float spillPercent = job.getFloat(MRJobConfig.MAP_SORT_SPILL_PERCENT, 0.8f);
    if (spillPercent > 1.0f || spillPercent <= 0.0f) {
      throw new IOException(
          "Invalid \"" + MRJobConfig.MAP_SORT_SPILL_PERCENT + "\": " + spillPercent);
    }
    int sortMb = job.getInt(MRJobConfig.IO_SORT_MB, MRJobConfig.DEFAULT_IO_SORT_MB);
    if ((sortMb & 0x7FF) != sortMb) {
      throw new IOException("Invalid \"" + MRJobConfig.IO_SORT_MB + "\": " + sortMb);
    }
    int bytes = sortMb << 20;
    return bytes - bytes % MapSortBuffer.META_BYTES;
  }

  /**
   * Stock's spill-file cap. MRJobConfig names it from Hadoop 3.4 on; named here so the same source
   * builds against 3.3, where stock has no cap and the key is simply unset.
   */
  static final String SPILL_FILES_COUNT_LIMIT = "mapreduce.task.spill.files.count.limit";

  /** {@code mapreduce.task.spill.files.count.limit}: -1 for no limit. */
  static int spillFilesLimit(JobConf job) throws IOException {
    int limit = job.getInt(SPILL_FILES_COUNT_LIMIT, -1);
    if (limit != -1 && limit < 0) {
      throw new IOException(
          "Invalid value for \"" + SPILL_FILES_COUNT_LIMIT + "\", current value: " + limit);
    }
    return limit;
  }

  /** Opens file.out and its index to the ShuffleHandler if the umask would not, as stock does. */
  static void makeShuffleReadable(JobConf job, FileSystem rawLocal, Path output, Path index)
      throws IOException {
    if (!SHUFFLE_OUTPUT_PERM.equals(SHUFFLE_OUTPUT_PERM.applyUMask(FsPermission.getUMask(job)))) {
      rawLocal.setPermission(output, SHUFFLE_OUTPUT_PERM);
      rawLocal.setPermission(index, SHUFFLE_OUTPUT_PERM);
    }
  }
}
