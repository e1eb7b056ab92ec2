package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeFile;

/**
 * One sorted run in a SpongeFile, in IFile format (codec-compressed when map outputs are, checksum
 * at the end).
 *
 * @param rawLength uncompressed IFile bytes, for merge progress
 * @param mapOutput whether the run is one map's output as shuffled (counted as a merged map output
 *     when read)
 */
record SpilledSegment(SpongeFile file, long rawLength, boolean mapOutput) {
  long storedLength() {
    return file.length();
  }
}
