package dev.levee.sponge.client;

import dev.levee.sponge.protocol.Frame;
import dev.levee.sponge.protocol.Op;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pipelined ALLOCATE_WRITE requests to one server over one connection: a request is written by the
 * caller's thread and the next one may follow at once, without waiting for the first reply; a
 * reader thread takes the replies in request order (the server serves a connection's requests in
 * order) and completes each request's future. So the server copies chunk k into its pool while
 * chunk k+1 is on the wire, and no chunk waits for a round trip.
 *
 * <p>A server's error reply (no room, bad request) fails or empties only its own request; the
 * connection stays in frame sync and the requests behind it are served. A broken connection (server
 * killed, timeout) fails every request still outstanding with an IOException naming the server and
 * the request, and the pipeline is not used again.
 */
final class StorePipeline implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(StorePipeline.class);

  /** A request on the wire: what its reply completes, and what to say when it never comes. */
  private record Outstanding(long requestId, String what, CompletableFuture<Frame> reply) {}

  private static final Outstanding STOP = new Outstanding(-1, "stop", null);

  private final SpongeServerAddress server;
  private final ServerConnection connection;
  private final LinkedBlockingQueue<Outstanding> outstanding = new LinkedBlockingQueue<>();
  private final Thread reader;

  /** Set once, when the connection broke or the pipeline was closed; guarded by {@code this}. */
  private IOException broken;

  private long lastUsedNanos = System.nanoTime();

  StorePipeline(SpongeServerAddress server, ClientSettings settings) throws IOException {
    this.server = server;
    this.connection = new ServerConnection(server, settings);
    this.reader =
        new Thread(
            this::readReplies, "sponge-store-pipeline-" + server.host() + ":" + server.port());
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Writes one ALLOCATE_WRITE ({@code head} fields, then the chunk bytes {@code body}) and returns
   * its reply's future. The bytes are on the socket when this returns (the caller may reuse {@code
   * body}); the future fails with an IOException naming the server and {@code what} if the
   * connection breaks before the reply.
   */
  synchronized CompletableFuture<Frame> send(ByteBuffer head, ByteBuffer body, String what) {
    if (broken != null) {
      return CompletableFuture.failedFuture(failure(what, broken));
    }
    CompletableFuture<Frame> reply = new CompletableFuture<>();
    lastUsedNanos = System.nanoTime();
    long id;
    try {
      id = connection.send(Op.ALLOCATE_WRITE, head, body);
    } catch (IOException e) {
      breakWith(e);
      return CompletableFuture.failedFuture(failure(what, e));
    }
    outstanding.add(new Outstanding(id, what, reply));
    return reply;
  }

  /**
   * Whether new requests may go here: not broken, and not idle so long that the server may have
   * closed it.
   */
  synchronized boolean usable() {
    return broken == null
        && (!outstanding.isEmpty()
            || System.nanoTime() - lastUsedNanos < ClientSettings.MAX_IDLE_NANOS);
  }

  private void readReplies() {
    while (true) {
      Outstanding o;
      try {
        o = outstanding.take();
      } catch (InterruptedException e) {
        o = STOP;
      }
      if (o == STOP) {
        failOutstanding();
        return;
      }
      try {
        o.reply.complete(connection.receive(o.requestId, Op.ALLOCATE_WRITE));
      } catch (IOException e) {
        o.reply.completeExceptionally(failure(o.what, e));
        breakWith(e);
        failOutstanding();
        return;
      }
    }
  }

  private synchronized void breakWith(IOException e) {
    if (broken == null) {
      broken = e;
      if (!(e instanceof PipelineClosedException)) {
        LOG.info("store pipeline to sponge server {} broke: {}", server, e.toString());
      }
    }
    connection.close();
  }

  private void failOutstanding() {
    List<Outstanding> left = new ArrayList<>();
    outstanding.drainTo(left);
    IOException cause;
    synchronized (this) {
      cause = broken;
    }
    for (Outstanding o : left) {
      if (o != STOP) {
        o.reply.completeExceptionally(failure(o.what, cause));
      }
    }
  }

  private IOException failure(String what, IOException cause) {
    return new IOException(
        "sponge server " + server + " failed before answering " + what + ": " + cause, cause);
  }

  /** Closes the connection; requests still outstanding fail. */
  @Override
  public void close() {
    breakWith(new PipelineClosedException());
    outstanding.add(STOP);
  }

  private static final class PipelineClosedException extends IOException {
    PipelineClosedException() {
      super("the sponge client was closed");
    }
  }
}
