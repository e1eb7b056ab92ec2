package dev.levee.mapred;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.mapred.IFileOutputStream;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.junit.jupiter.api.Test;

class DecompressedMapOutputTest {
  private static final Configuration CONF = new Configuration(false);
  private static final TaskAttemptID MAP = new TaskAttemptID("j", 1, TaskType.MAP, 3, 0);
  private static final byte[] DATA =
      "records of one map output, written once and read back whole\n"
          .repeat(200)
          .getBytes(StandardCharsets.UTF_8);

  /** Collects what the fetcher's stream delivers. */
  private static class Held extends DecompressedMapOutput<Object, Object> {
    byte[] bytes;

    Held(CompressionCodec codec) {
      super(MAP, DATA.length, true, CONF, codec);
    }

    @Override
    protected void load(InputStream in, long decompressedLength) throws IOException {
      bytes = new byte[(int) decompressedLength];
      IOUtils.readFully(in, bytes, 0, bytes.length);
    }

    @Override
    public void commit() {}

    @Override
    public void abort() {}

    @Override
    public String getDescription() {
      return "TEST";
    }
  }

  /** A map output as the shuffle serves it: compressed if asked, then IFile's checksum trailer. */
  private static byte[] served(byte[] data, CompressionCodec codec) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    IFileOutputStream checked = new IFileOutputStream(bytes);
    if (codec == null) {
      checked.write(data, 0, data.length);
    } else {
      CompressionOutputStream out = codec.createOutputStream(checked);
      out.write(data);
      out.finish();
    }
    checked.finish();
    return bytes.toByteArray();
  }

  private static void fetch(Held output, byte[] served, long decompressedLength)
      throws IOException {
    ShuffleClientMetrics metrics =
        ShuffleClientMetrics.create(
            new TaskAttemptID("j", 1, TaskType.REDUCE, 0, 0), new JobConf(false));
    output.shuffle(
        null,
        new ByteArrayInputStream(served),
        served.length,
        decompressedLength,
        metrics,
        Reporter.NULL);
  }

  private static DefaultCodec codec() {
    DefaultCodec codec = new DefaultCodec();
    codec.setConf(CONF);
    return codec;
  }

  @Test
  void plainAndCompressedMapOutputsArriveWhole() throws IOException {
    Held plain = new Held(null);
    fetch(plain, served(DATA, null), DATA.length);
    assertArrayEquals(DATA, plain.bytes);

    Held compressed = new Held(codec());
    byte[] wire = served(DATA, codec());
    assertTrue(wire.length < DATA.length / 4, "the test data did not compress");
    fetch(compressed, wire, DATA.length);
    assertArrayEquals(DATA, compressed.bytes);
  }

  @Test
  void aCorruptByteOrAnOutputLongerThanAnnouncedFailsTheFetch() throws IOException {
    byte[] wire = served(DATA, null);
    wire[100] ^= 0x40;
    IOException corrupt =
        assertThrows(IOException.class, () -> fetch(new Held(null), wire, DATA.length));
    assertTrue(corrupt.getMessage().toLowerCase().contains("checksum"), corrupt.getMessage());

    IOException longer =
        assertThrows(
            IOException.class, () -> fetch(new Held(null), served(DATA, null), DATA.length - 10));
    assertTrue(
        longer.getMessage().contains("extra bytes in the map output of " + MAP),
        longer.getMessage());
  }

  @Test
  void theDecompressorGoesBackToThePoolWhenLoadingFails() throws IOException {
    CompressionCodec codec = codec();
    Held failing =
        new Held(codec) {
          @Override
          protected void load(InputStream in, long decompressedLength) throws IOException {
            throw new IOException("the reducer's memory is gone");
          }
        };
    byte[] wire = served(DATA, codec);
    int leased = CodecPool.getLeasedDecompressorsCount(codec);
    assertThrows(IOException.class, () -> fetch(failing, wire, DATA.length));
    assertEquals(
        leased, CodecPool.getLeasedDecompressorsCount(codec), "a decompressor stayed leased");
    Held next = new Held(codec);
    fetch(next, wire, DATA.length);
    assertArrayEquals(DATA, next.bytes);
    assertEquals(leased, CodecPool.getLeasedDecompressorsCount(codec));
  }
}
