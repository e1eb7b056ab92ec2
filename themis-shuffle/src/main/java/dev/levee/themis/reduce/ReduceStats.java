package dev.levee.themis.reduce;

import dev.levee.themis.ThemisCounters;
import org.apache.hadoop.mapred.Reporter;

/** What one reduce task did, published as counters when the task ends. */
final class ReduceStats {
  private long fetchedBytes;
  private long segments;
  private long peakBytes;
  private long recordsSorted;
  private long sortNanos;
  private long overflowBytes;
  private long overflowRuns;
  private long overflowRecords;

  synchronized void segmentFetched(long bytes) {
    fetchedBytes += bytes;
    segments++;
  }

  synchronized void holding(long bytes) {
    peakBytes = Math.max(peakBytes, bytes);
  }

  synchronized void sorted(long records, long nanos) {
    recordsSorted += records;
    sortNanos += nanos;
  }

  synchronized void overflowRun(long bytes, long records) {
    overflowBytes += bytes;
    overflowRuns++;
    overflowRecords += records;
  }

  synchronized void publish(Reporter reporter) {
    ThemisCounters.increment(reporter, ThemisCounters.REDUCE_FETCHED_BYTES, fetchedBytes);
    ThemisCounters.increment(reporter, ThemisCounters.REDUCE_FETCHED_SEGMENTS, segments);
    ThemisCounters.increment(reporter, ThemisCounters.REDUCE_PEAK_BYTES, peakBytes);
    ThemisCounters.increment(reporter, ThemisCounters.REDUCE_RECORDS_SORTED, recordsSorted);
    ThemisCounters.increment(reporter, ThemisCounters.REDUCE_SORT_MS, sortNanos / 1_000_000);
    ThemisCounters.increment(reporter, ThemisCounters.REDUCE_OVERFLOW_BYTES, overflowBytes);
    ThemisCounters.increment(reporter, ThemisCounters.REDUCE_OVERFLOW_RUNS, overflowRuns);
    ThemisCounters.increment(reporter, ThemisCounters.REDUCE_OVERFLOW_RECORDS, overflowRecords);
  }
}
