package dev.levee.themis.reduce;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.IndexRecord;

/** A sorted run a reducer wrote because its partition outgrew its memory: one IFile segment. */
record SortedRun(Path file, IndexRecord segment, long records) {}
