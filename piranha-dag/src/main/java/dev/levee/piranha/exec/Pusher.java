package dev.levee.piranha.exec;

import dev.levee.piranha.AbortSignal;
import dev.levee.piranha.Deadline;
import dev.levee.piranha.PiranhaCounters;
import dev.levee.piranha.dag.TaskId;
import dev.levee.piranha.exchange.Run;
import dev.levee.piranha.plan.RunPlan;
import dev.levee.piranha.rendezvous.ZkRendezvous;
import dev.levee.piranha.transport.ChannelAuth;
import dev.levee.piranha.transport.Endpoint;
import dev.levee.piranha.transport.PushClient;
import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A parent task's connections to all its children. It meets them lazily: the first run to push
 * waits (bounded) for every child to have registered, which lets the task compute while its
 * children are still being scheduled (the paper's "waits for them to come up" reading). At the end
 * every child gets an END, including children it sent nothing to, and the task returns only once
 * each has acknowledged holding the whole stream.
 */
final class Pusher implements Closeable {
  private final RunPlan plan;
  private final TaskId self;
  private final ZkRendezvous rendezvous;
  private final ChannelAuth auth;
  private final AbortSignal abort;
  private final TaskReporter reporter;
  private final RunMaterializer materializer;
  private final int rendezvousTimeoutMs;
  private final int transportTimeoutMs;
  private final int frameSize;
  private final Runnable tick;
  private final Map<TaskId, PushClient> clients = new TreeMap<>();
  private Map<TaskId, Endpoint> endpoints;
  private long rendezvousWaitMs;

  Pusher(
      RunPlan plan,
      TaskId self,
      ZkRendezvous rendezvous,
      ChannelAuth auth,
      AbortSignal abort,
      TaskReporter reporter,
      RunMaterializer materializer,
      int rendezvousTimeoutMs,
      int transportTimeoutMs,
      int frameSize,
      Runnable tick) {
    this.plan = plan;
    this.self = self;
    this.rendezvous = rendezvous;
    this.auth = auth;
    this.abort = abort;
    this.reporter = reporter;
    this.materializer = materializer;
    this.rendezvousTimeoutMs = rendezvousTimeoutMs;
    this.transportTimeoutMs = transportTimeoutMs;
    this.frameSize = frameSize;
    this.tick = tick;
    abort.onAbort(reason -> closeQuietly());
  }

  /** Pushes {@code run} to {@code child}, materializing it first if the run checkpoints. */
  void send(TaskId child, Run run) throws IOException, InterruptedException {
    abort.check();
    PushClient c = client(child);
    String edge = plan.edgeName(self.stage(), child.stage());
    Run stored = materializer.materialize(run, "to-" + child);
    c.send(stored);
    materializer.release(stored);
    reporter
        .getCounter(PiranhaCounters.GROUP, PiranhaCounters.pushedRecords(edge))
        .increment(run.records());
    reporter
        .getCounter(PiranhaCounters.GROUP, PiranhaCounters.pushedBytes(edge))
        .increment(run.bytes());
    tick.run();
  }

  /** Ends the stream to every child and waits for every acknowledgement. */
  void finish() throws IOException, InterruptedException {
    Set<TaskId> children = plan.childrenOf(self);
    for (TaskId child : children) {
      client(child);
    }
    for (TaskId child : children) {
      abort.check();
      clients.get(child).finish();
      tick.run();
    }
  }

  long rendezvousWaitMs() {
    return rendezvousWaitMs;
  }

  private PushClient client(TaskId child) throws IOException, InterruptedException {
    PushClient c = clients.get(child);
    if (c != null) {
      return c;
    }
    if (endpoints == null) {
      long t0 = System.nanoTime();
      endpoints =
          rendezvous.awaitEndpoints(
              plan.childrenOf(self),
              Deadline.in(rendezvousTimeoutMs, "the children of " + self + " did not all register"),
              tick);
      rendezvousWaitMs = (System.nanoTime() - t0) / 1_000_000;
    }
    Endpoint ep = endpoints.get(child);
    if (ep == null) {
      throw new IOException(child + " is not a child of " + self);
    }
    c = PushClient.connect(ep, auth, self, child, transportTimeoutMs, frameSize);
    clients.put(child, c);
    return c;
  }

  private void closeQuietly() {
    for (PushClient c : clients.values()) {
      try {
        c.close();
      } catch (IOException ignored) {
        // aborting
      }
    }
  }

  @Override
  public void close() {
    closeQuietly();
  }
}
