package dev.levee.themis.io;

import dev.levee.themis.records.FramedRecord;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.io.compress.Compressor;
import org.apache.hadoop.mapred.IFileOutputStream;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapreduce.CryptoUtils;
import org.apache.hadoop.mapreduce.security.IntermediateEncryptedStream;

/**
 * Writes one IFile segment (one partition of a map output or of a run) from bytes that are already
 * framed records, exactly as {@code IFile.Writer} lays it out: the encryption header when
 * intermediate data is encrypted, then the records through the optional codec, the end-of-segment
 * marker, and IFile's CRC32 trailer. Hadoop's {@code IFile.Reader}, the fetchers and the
 * ShuffleHandler read it like a stock segment.
 *
 * <p>Taking framed bytes instead of keys and values is what lets a map write a partition as a few
 * large copies rather than one serializer call per record.
 */
public final class SegmentWriter {
  private static final byte[] EOF_MARKER = {(byte) -1, (byte) -1};

  private final Configuration conf;
  private final CompressionCodec codec;
  private final int cryptoPadding;
  private FSDataOutputStream file;
  private Path path;
  private long segmentStart = -1;
  private FSDataOutputStream partitionOut;
  private IFileOutputStream checksumOut;
  private CompressionOutputStream compressedOut;
  private Compressor compressor;
  private OutputStream target;
  private long rawLength;
  private long records;
  private final byte[] header = new byte[10];

  public SegmentWriter(Configuration conf, CompressionCodec codec) throws IOException {
    this.conf = conf;
    this.codec = codec;
    this.cryptoPadding = CryptoUtils.cryptoPadding(conf);
  }

  /** Starts a segment at the current end of {@code out}. */
  public void begin(IntermediateFile out) throws IOException {
    if (segmentStart >= 0) {
      throw new IllegalStateException("segment of " + path + " not finished");
    }
    this.file = out.stream();
    this.path = out.path();
    segmentStart = file.getPos();
    partitionOut = IntermediateEncryptedStream.wrapIfNecessary(conf, file, false, path);
    checksumOut = new IFileOutputStream(partitionOut);
    if (codec != null) {
      compressor = CodecPool.getCompressor(codec);
      if (compressor == null) {
        throw new IOException(
            "no compressor available for "
                + codec.getClass().getName()
                + " (mapreduce.map.output.compress.codec); is its native library loaded?");
      }
      compressor.reset();
      compressedOut = codec.createOutputStream(checksumOut, compressor);
      target = compressedOut;
    } else {
      target = checksumOut;
    }
    rawLength = 0;
    records = 0;
  }

  /** Appends {@code recordCount} complete framed records. */
  public void write(byte[] framed, int offset, int length, long recordCount) throws IOException {
    target.write(framed, offset, length);
    rawLength += length;
    records += recordCount;
  }

  /** Appends one record given as raw key and value bytes. */
  public void writeRecord(DataInputBuffer key, DataInputBuffer value) throws IOException {
    int keyLength = key.getLength() - key.getPosition();
    int valueLength = value.getLength() - value.getPosition();
    int headerLength = FramedRecord.writeHeader(header, 0, keyLength, valueLength);
    write(header, 0, headerLength, 0);
    write(key.getData(), key.getPosition(), keyLength, 0);
    write(value.getData(), value.getPosition(), valueLength, 1);
  }

  /** Ends the segment; returns its index entry as the stock collector would write it. */
  public IndexRecord finish() throws IOException {
    target.write(EOF_MARKER, 0, EOF_MARKER.length);
    rawLength += EOF_MARKER.length;
    if (compressedOut != null) {
      compressedOut.finish();
      compressedOut.resetState();
      CodecPool.returnCompressor(compressor);
      compressor = null;
      compressedOut = null;
    }
    checksumOut.finish();
    if (partitionOut != file) {
      // Flushes the cipher; the file itself stays open for the next segment.
      partitionOut.close();
    }
    long partLength = file.getPos() - segmentStart;
    IndexRecord index = new IndexRecord(segmentStart, rawLength + cryptoPadding, partLength);
    segmentStart = -1;
    return index;
  }

  /** Records written into the segment being written or last finished. */
  public long records() {
    return records;
  }

  /** Decompressed bytes of the segment being written, marker included once finished. */
  public long rawLength() {
    return rawLength;
  }
}
