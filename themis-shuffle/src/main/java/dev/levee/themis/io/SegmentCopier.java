package dev.levee.themis.io;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.mapred.IFileInputStream;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapreduce.CryptoUtils;
import org.apache.hadoop.mapreduce.security.IntermediateEncryptedStream;

/**
 * Copies the records of one segment of a local run into the segment being written, without parsing
 * them: decrypt, verify IFile's checksum, decompress, copy all but the end marker. This is the one
 * extra read of an overflowing map's runs.
 */
public final class SegmentCopier {
  private final Configuration conf;
  private final FileSystem rawLocal;
  private final CompressionCodec codec;
  private final int cryptoPadding;
  private final byte[] buffer = new byte[256 << 10];

  public SegmentCopier(Configuration conf, FileSystem rawLocal, CompressionCodec codec)
      throws IOException {
    this.conf = conf;
    this.rawLocal = rawLocal;
    this.codec = codec;
    this.cryptoPadding = CryptoUtils.cryptoPadding(conf);
  }

  public void copy(Path file, IndexRecord segment, long records, SegmentWriter into)
      throws IOException {
    long payload = segment.rawLength - cryptoPadding - 2;
    Decompressor decompressor = codec == null ? null : CodecPool.getDecompressor(codec);
    try (FSDataInputStream raw = rawLocal.open(file)) {
      raw.seek(segment.startOffset);
      FSDataInputStream plain = IntermediateEncryptedStream.wrapIfNecessary(conf, raw, file);
      InputStream in = new IFileInputStream(plain, segment.partLength - cryptoPadding, conf);
      if (codec != null) {
        decompressor.reset();
        in = codec.createInputStream(in, decompressor);
      }
      long left = payload;
      while (left > 0) {
        int n = (int) Math.min(buffer.length, left);
        IOUtils.readFully(in, buffer, 0, n);
        into.write(buffer, 0, n, left == n ? records : 0);
        left -= n;
      }
      if (payload == 0 && records > 0) {
        throw new IOException(file + ": segment at " + segment.startOffset + " has no records");
      }
      IOUtils.readFully(in, buffer, 0, 2);
      if (buffer[0] != (byte) -1 || buffer[1] != (byte) -1) {
        throw new IOException(
            file + ": segment at " + segment.startOffset + " does not end with IFile's EOF marker");
      }
      // Reading past the end makes the checksum stream verify the CRC trailer.
      if (in.read() >= 0) {
        throw new IOException(
            file + ": segment at " + segment.startOffset + " is longer than its index says");
      }
    } finally {
      if (decompressor != null) {
        CodecPool.returnDecompressor(decompressor);
      }
    }
  }
}
