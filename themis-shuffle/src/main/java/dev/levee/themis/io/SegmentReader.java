package dev.levee.themis.io;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapreduce.CryptoUtils;
import org.apache.hadoop.mapreduce.security.IntermediateEncryptedStream;

/**
 * Opens one segment of a local intermediate file for reading, the way Hadoop's own merger does:
 * seek, decrypt when intermediate data is encrypted, then IFile's checksum and the codec.
 */
public final class SegmentReader {
  private SegmentReader() {}

  public static IFile.Reader<Object, Object> open(
      Configuration conf,
      FileSystem rawLocal,
      Path file,
      IndexRecord segment,
      CompressionCodec codec,
      Counters.Counter readsCounter)
      throws IOException {
    FSDataInputStream in = rawLocal.open(file);
    try {
      in.seek(segment.startOffset);
      in = IntermediateEncryptedStream.wrapIfNecessary(conf, in, file);
      return new IFile.Reader<>(
          conf, in, segment.partLength - CryptoUtils.cryptoPadding(conf), codec, readsCounter);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }
}
