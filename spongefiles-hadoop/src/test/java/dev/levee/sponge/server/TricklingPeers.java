package dev.levee.sponge.server;

import dev.levee.sponge.protocol.Frame;
import dev.levee.sponge.protocol.FrameCodec;
import dev.levee.sponge.protocol.Op;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.protocol.Status;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;

/**
 * Raw loopback peers for the slow-peer tests: a well-formed FREE_SPACE request from a chosen
 * address, and a FREE_SPACE frame trickled one byte at a time.
 */
final class TricklingPeers {
  /** Bytes in a trickled frame: a FREE_SPACE header announcing 60 bytes, padded to match. */
  static final int FRAME_BYTES = 64;

  private TricklingPeers() {}

  /** A FREE_SPACE request from {@code local}: OK when served, BUSY when refused. */
  static Status freeSpaceFrom(SpongeServerAddress server, String local) throws IOException {
    try (Socket s = connectFrom(server, local)) {
      return askFreeSpace(s);
    }
  }

  static Socket connectFrom(SpongeServerAddress server, String local) throws IOException {
    Socket s = new Socket();
    try {
      s.bind(new InetSocketAddress(InetAddress.getByName(local), 0));
      s.connect(new InetSocketAddress(server.host(), server.port()), 2000);
      return s;
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  /** One FREE_SPACE request on an open connection, which stays open. */
  static Status askFreeSpace(Socket s) throws IOException {
    s.setSoTimeout(5000);
    s.getOutputStream().write(freeSpaceFrame());
    Frame f = FrameCodec.read(new DataInputStream(s.getInputStream()), 1 << 16);
    return Status.fromCode(f.code());
  }

  private static byte[] freeSpaceFrame() {
    return FrameCodec.encode(Op.FREE_SPACE.code(), 1, new byte[0]);
  }

  /**
   * Connects from 127.0.0.1, runs {@code connected}, then sends the first {@code bytes} (at most
   * {@link #FRAME_BYTES}) of a trickled frame one byte every 200 ms: each byte comes well within a
   * socket timeout. Returns how many bytes went out before the server cut or refused the connection
   * ({@code bytes} if it never did).
   */
  static int trickle(SpongeServerAddress server, int bytes, Runnable connected)
      throws IOException, InterruptedException {
    return trickle(server, "127.0.0.1", bytes, connected);
  }

  /** As above, from {@code local}. */
  static int trickle(SpongeServerAddress server, String local, int bytes, Runnable connected)
      throws IOException, InterruptedException {
    try (Socket s = new Socket()) {
      s.bind(new InetSocketAddress(InetAddress.getByName(local), 0));
      s.connect(new InetSocketAddress(server.host(), server.port()), 2000);
      connected.run();
      ByteBuffer frame = ByteBuffer.allocate(FRAME_BYTES);
      frame.putInt(FRAME_BYTES - 4).put(Frame.VERSION).put(Op.FREE_SPACE.code()).putLong(2);
      OutputStream out = s.getOutputStream();
      for (int i = 0; i < bytes; i++) {
        try {
          out.write(frame.get(i));
          out.flush();
        } catch (IOException cut) {
          return i;
        }
        Thread.sleep(200);
      }
      return bytes;
    }
  }
}
