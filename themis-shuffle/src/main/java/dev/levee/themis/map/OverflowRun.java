package dev.levee.themis.map;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.SpillRecord;

/**
 * One run a map wrote because its output outgrew its buffer: a file with one IFile segment per
 * partition, and the index of those segments (kept in memory).
 */
record OverflowRun(Path file, SpillRecord index, long[] recordsPerPartition, long bytes) {}
