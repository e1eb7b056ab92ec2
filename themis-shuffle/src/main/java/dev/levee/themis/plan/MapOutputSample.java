package dev.levee.themis.plan;

import java.util.List;

/**
 * What phase 0 learned by running the job's mapper over split prefixes: how much map output each
 * input byte makes, how much of it reaches the reducers, and a uniform sample of the records they
 * receive (the combiner's output where the maps run one).
 *
 * @param inputBytes input bytes the sampled prefixes covered
 * @param outputRecords map output records they produced
 * @param outputBytes framed bytes of those records
 * @param records a uniform reservoir sample of the records reducers receive
 * @param splitsSampled splits whose prefixes were read
 * @param totalSplits the job's splits
 * @param totalInputBytes the job's input bytes (sum of split lengths)
 * @param largestSplitBytes the job's largest split
 * @param reducerRecordShare reducer input records per map output record (below 1 where a combiner
 *     merges records; 1 without one)
 * @param reducerByteShare the same for bytes
 */
public record MapOutputSample(
    long inputBytes,
    long outputRecords,
    long outputBytes,
    List<SampledRecord> records,
    int splitsSampled,
    int totalSplits,
    long totalInputBytes,
    long largestSplitBytes,
    double reducerRecordShare,
    double reducerByteShare) {

  /** A sample of a job whose map output reaches the reducers as it is (no combiner). */
  public MapOutputSample(
      long inputBytes,
      long outputRecords,
      long outputBytes,
      List<SampledRecord> records,
      int splitsSampled,
      int totalSplits,
      long totalInputBytes,
      long largestSplitBytes) {
    this(
        inputBytes,
        outputRecords,
        outputBytes,
        records,
        splitsSampled,
        totalSplits,
        totalInputBytes,
        largestSplitBytes,
        1,
        1);
  }

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

  /** What the reducers receive, all together: the map output after the maps' combiner. */
  public long estimatedReducerInputBytes() {
    return (long) (estimatedOutputBytes() * reducerByteShare);
  }

  public long estimatedReducerInputRecords() {
    return (long) (estimatedOutputRecords() * reducerRecordShare);
  }

  /** Whether the maps' combiner shrinks what the reducers receive. */
  public boolean combined() {
    return reducerRecordShare != 1 || reducerByteShare != 1;
  }
}
