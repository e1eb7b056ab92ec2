package dev.levee.piranha.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The frame codec against random and damaged input: valid frames round-trip; anything else ends in
 * a {@link FrameException} (never another exception, never an allocation beyond the limit).
 */
class FrameCodecFuzzTest {
  private static final int LIMIT = 64 << 10;
  private static final FrameType[] TYPES = FrameType.values();

  @Test
  void validFramesRoundTrip() throws IOException {
    Random r = new Random(11);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    FrameCodec.Writer w = new FrameCodec.Writer(bytes);
    List<byte[]> payloads = new ArrayList<>();
    List<FrameType> types = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      FrameType t = TYPES[r.nextInt(TYPES.length)];
      int max = t == FrameType.DATA ? LIMIT : FrameCodec.CONTROL_LIMIT;
      byte[] p = new byte[r.nextInt(r.nextBoolean() ? 64 : max + 1)];
      r.nextBytes(p);
      w.write(t, p, 0, p.length);
      payloads.add(p);
      types.add(t);
    }
    w.flush();
    FrameCodec.Reader reader =
        new FrameCodec.Reader(new ByteArrayInputStream(bytes.toByteArray()), LIMIT);
    for (int i = 0; i < payloads.size(); i++) {
      Frame f = reader.read();
      assertEquals(types.get(i), f.type());
      assertArrayEquals(payloads.get(i), Arrays.copyOf(f.payload(), f.length()));
    }
    assertNull(reader.read(), "clean end of stream");
  }

  @Test
  void damagedStreamsFailOnlyWithFrameException() throws IOException {
    Random r = new Random(12);
    long frames = 0;
    long failures = 0;
    long payloadFailures = 0;
    for (int stream = 0; stream < 12_000; stream++) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      FrameCodec.Writer w = new FrameCodec.Writer(bytes);
      int n = 1 + r.nextInt(40);
      for (int i = 0; i < n; i++) {
        byte[] p = new byte[r.nextInt(200)];
        r.nextBytes(p);
        w.write(TYPES[r.nextInt(TYPES.length)], p, 0, p.length);
      }
      w.flush();
      byte[] data = bytes.toByteArray();
      damage(data, r);
      if (r.nextInt(4) == 0) {
        data = Arrays.copyOf(data, r.nextInt(data.length + 1));
      }
      FrameCodec.Reader reader = new FrameCodec.Reader(new ByteArrayInputStream(data), LIMIT);
      try {
        Frame f;
        while ((f = reader.read()) != null) {
          frames++;
          try {
            parsePayload(f);
          } catch (FrameException bad) {
            payloadFailures++;
          }
        }
      } catch (FrameException expected) {
        failures++;
        assertTrue(expected.getMessage() != null && !expected.getMessage().isEmpty());
      }
    }
    assertTrue(frames >= 100_000, "frames decoded " + frames);
    assertTrue(failures > 1_000, "damage was detected: " + failures);
    assertTrue(payloadFailures > 1_000, "malformed payloads were detected: " + payloadFailures);
  }

  @Test
  void randomBytesFailOnlyWithFrameException() throws IOException {
    Random r = new Random(13);
    int failures = 0;
    for (int i = 0; i < 100_000; i++) {
      byte[] data = new byte[r.nextInt(64)];
      r.nextBytes(data);
      if (data.length > 0 && r.nextBoolean()) {
        data[0] = TYPES[r.nextInt(TYPES.length)].code();
      }
      FrameCodec.Reader reader = new FrameCodec.Reader(new ByteArrayInputStream(data), LIMIT);
      try {
        Frame f;
        while ((f = reader.read()) != null) {
          parsePayload(f);
        }
      } catch (FrameException expected) {
        failures++;
      }
    }
    assertTrue(failures > 90_000, "random bytes are refused: " + failures);
  }

  @Test
  void hugeLengthIsRefusedWithoutAllocating() {
    byte[] header = {
      FrameType.DATA.code(), 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 0, 0, 0
    };
    FrameException e =
        assertThrows(
            FrameException.class,
            () -> new FrameCodec.Reader(new ByteArrayInputStream(header), LIMIT).read());
    assertTrue(e.getMessage().contains("2147483647"), e.getMessage());
    assertTrue(e.getMessage().contains("the limit is " + LIMIT), e.getMessage());
  }

  @Test
  void unknownTypeNamesTheByte() {
    FrameException e =
        assertThrows(
            FrameException.class,
            () ->
                new FrameCodec.Reader(new ByteArrayInputStream("GET / HTTP/1.1".getBytes()), LIMIT)
                    .read());
    assertTrue(e.getMessage().contains("0x47"), e.getMessage());
  }

  /** The field parsing the server does for each frame type. */
  private static void parsePayload(Frame f) throws FrameException {
    Frame.PayloadReader p = f.reader();
    switch (f.type()) {
      case HELLO -> {
        p.readString(256);
        p.readInt();
        p.readInt();
        p.readInt();
        p.readInt();
        p.readInt();
        p.readBytes(ChannelAuth.MAC_BYTES);
        p.end();
      }
      case RUN_START -> {
        p.readBoolean();
        p.end();
      }
      case RUN_END, ACK -> {
        p.readLong();
        p.readLong();
        p.end();
      }
      case END -> {
        p.readLong();
        p.readLong();
        p.readInt();
        p.end();
      }
      case ERROR -> p.readString(2048);
      case CHALLENGE -> {
        p.readBytes(ChannelAuth.NONCE_BYTES);
        p.end();
      }
      default -> {}
    }
  }

  private static void damage(byte[] data, Random r) {
    int flips = r.nextInt(4);
    for (int i = 0; i < flips && data.length > 0; i++) {
      int at = r.nextInt(data.length);
      data[at] ^= (byte) (1 << r.nextInt(8));
    }
  }
}
