package dev.levee.themis.plan;

import java.util.List;

/**
 * What phase 0 learned by running the job's mapper over split prefixes: how much map output each
 * input byte makes, and a uniform sample of the output records.
 *
 * @param inputBytes input bytes the sampled prefixes covered
 * @param outputRecords map output records they produced
 * @param outputBytes framed bytes of those records
 * @param records a uniform reservoir sample of those records
 * @param splitsSampled splits whose prefixes were read
 * @param totalSplits the job's splits
 * @param totalInputBytes the job's input bytes (sum of split lengths)
 * @param largestSplitBytes the job's largest split
 */
public record MapOutputSample(
    long inputBytes,
    long outputRecords,
    long outputBytes,
    List<SampledRecord> records,
    int splitsSampled,
    int totalSplits,
    long totalInputBytes,
    long largestSplitBytes) {

  /** Map output bytes per input byte. */
  public double outputPerInputByte() {
    return inputBytes == 0 ? 0 : (double) outputBytes / inputBytes;
  }

  public double recordsPerInputByte() {
    return inputBytes == 0 ? 0 : (double) outputRecords / inputBytes;
  }

  /** The job's whole map output, extrapolated from the prefixes. */
  public long estimatedOutputBytes() {
    return (long) (outputPerInputByte() * totalInputBytes);
  }

  public long estimatedOutputRecords() {
    return (long) (recordsPerInputByte() * totalInputBytes);
  }

  /** How much of the job's output one sampled record stands for, in bytes. */
  public double bytesPerSampledByte() {
    long sampled = 0;
    for (SampledRecord r : records) {
      sampled += r.framedBytes();
    }
    return sampled == 0 ? 0 : (double) estimatedOutputBytes() / sampled;
  }
}
