package dev.levee.piranha.exec;

import dev.levee.piranha.AbortSignal;
import dev.levee.piranha.Deadline;
import dev.levee.piranha.PiranhaAbortedException;
import dev.levee.piranha.PiranhaConf;
import dev.levee.piranha.PiranhaCounters;
import dev.levee.piranha.dag.Stage;
import dev.levee.piranha.dag.TaskId;
import dev.levee.piranha.exchange.ReceiveStore;
import dev.levee.piranha.exchange.RunMerger;
import dev.levee.piranha.mr.JobKeys;
import dev.levee.piranha.plan.RunPlan;
import dev.levee.piranha.rendezvous.Registration;
import dev.levee.piranha.rendezvous.ZkClients;
import dev.levee.piranha.rendezvous.ZkLayout;
import dev.levee.piranha.rendezvous.ZkRendezvous;
import dev.levee.piranha.transport.ChannelAuth;
import dev.levee.piranha.transport.PushServer;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of one Piranha task inside a MapReduce map task: join the attempt in ZooKeeper; if it
 * has parents, listen and publish where; compute (an initial task over its split, any other task
 * once every parent's stream is held); push to the children or, for a terminal task, write through
 * the output format (committed by MapReduce after this returns); record itself done. Any failure
 * raises the run's abort, so every other task stops within a ZooKeeper round trip and the job fails
 * as a whole; the runner then reruns it.
 */
public final class TaskRuntime {
  private static final Logger LOG = LoggerFactory.getLogger(TaskRuntime.class);

  private final Mapper<Object, Object, Object, Object>.Context context;
  private final TaskId self;
  private final InputSplit innerSplit;
  private final AbortSignal abort = new AbortSignal();
  private final TaskTimeline timeline = new TaskTimeline();
  private volatile boolean finished;

  public TaskRuntime(
      Mapper<Object, Object, Object, Object>.Context context, TaskId self, InputSplit innerSplit) {
    this.context = context;
    this.self = self;
    this.innerSplit = innerSplit;
  }

  public void run() throws IOException, InterruptedException {
    timeline.mark(TaskTimeline.START);
    Configuration jobConf = context.getConfiguration();
    RunPlan plan = RunPlan.decode(jobConf.get(JobKeys.PLAN));
    String runId = jobConf.get(JobKeys.RUN_ID);
    int attempt = jobConf.getInt(JobKeys.ATTEMPT, 1);
    Configuration base = plan.dag().apply(jobConf);
    Stage stage = plan.stage(self.stage());
    TaskReporter reporter = new TaskReporter(context);
    armAbortHandling(jobConf);
    LOG.info(
        "Piranha task {} (stage '{}', {} of {}) of run {} attempt {}",
        self,
        stage.name(),
        self.partition() + 1,
        stage.parallelism(),
        runId,
        attempt);

    ZkRendezvous rendezvous = null;
    PushServer server = null;
    ReceiveStore store = null;
    Pusher pusher = null;
    try {
      ZkLayout layout = new ZkLayout(PiranhaConf.get(jobConf, PiranhaConf.ZK_ROOT), runId, attempt);
      rendezvous = ZkRendezvous.join(ZkClients.connect(jobConf), layout, self, abort);
      ChannelAuth auth = new ChannelAuth(secret(), runId, attempt);
      Path scratch = Path.of(System.getProperty("java.io.tmpdir"), "piranha-" + runId + "-" + self);
      PiranhaConf.Checkpoint checkpoint = PiranhaConf.get(jobConf, PiranhaConf.CHECKPOINT);
      int transportTimeout = PiranhaConf.get(jobConf, PiranhaConf.TRANSPORT_TIMEOUT_MS);
      int frameSize = PiranhaConf.get(jobConf, PiranhaConf.FRAME_SIZE);

      if (!stage.initial()) {
        long budget =
            (long)
                (Runtime.getRuntime().maxMemory()
                    * PiranhaConf.get(jobConf, PiranhaConf.RECEIVE_MEMORY_FRACTION));
        store =
            new ReceiveStore(
                budget,
                scratch.resolve("received"),
                checkpoint != PiranhaConf.Checkpoint.NONE,
                plan.parentsOf(self));
        server =
            PushServer.start(
                PiranhaConf.get(jobConf, PiranhaConf.TRANSPORT_PORTS),
                host(),
                auth,
                self,
                store,
                abort,
                frameSize,
                transportTimeout);
      }
      rendezvous.register(
          new Registration(
              server == null ? null : server.endpoint(),
              ProcessHandle.current().pid(),
              System.getenv().getOrDefault("CONTAINER_ID", "")));
      timeline.mark(TaskTimeline.REGISTERED);

      boolean terminal = self.stage() == plan.terminalStage();
      RecordWriter<Object, Object> out;
      TaskAttemptContext outputContext = null;
      if (terminal) {
        // Read by the committer when MapReduce commits this task, to name its files by partition.
        jobConf.setInt(JobKeys.TERMINAL_PARTITION, self.partition());
        Configuration oc = stage.last().apply(base);
        outputContext = new TaskAttemptContextImpl(oc, context.getTaskAttemptID(), reporter);
        OutputFormat<Object, Object> format = dev.levee.piranha.mr.PiranhaOutputFormat.real(oc);
        out =
            new CountingOutput(
                format.getRecordWriter(outputContext),
                context.getCounter(PiranhaCounters.GROUP, PiranhaCounters.OUTPUT_RECORDS));
        if (self.partition() == 0) {
          context.getCounter(PiranhaCounters.GROUP, PiranhaCounters.ATTEMPT).increment(attempt);
        }
      } else {
        FileSystem dfs = checkpoint == PiranhaConf.Checkpoint.DFS ? FileSystem.get(jobConf) : null;
        RunMaterializer materializer =
            new RunMaterializer(
                checkpoint,
                scratch.resolve("pushed"),
                dfs,
                new org.apache.hadoop.fs.Path(
                    PiranhaConf.get(jobConf, PiranhaConf.CHECKPOINT_DFS_DIR),
                    runId + "/attempt-" + attempt + "/" + self));
        pusher =
            new Pusher(
                plan,
                self,
                rendezvous,
                auth,
                abort,
                reporter,
                materializer,
                PiranhaConf.get(jobConf, PiranhaConf.RENDEZVOUS_TIMEOUT_MS),
                transportTimeout,
                frameSize,
                context::progress);
        out =
            new PushOutput(
                plan,
                self,
                base,
                PiranhaConf.get(jobConf, PiranhaConf.PUSH_BUFFER),
                pusher,
                context.getTaskAttemptID(),
                reporter);
      }

      OutputCommitter committer = context.getOutputCommitter();
      StepChain chain = new StepChain(stage.steps(), base, context, committer, innerSplit, out);
      if (stage.initial()) {
        chain.runMap(outerReader());
      } else {
        long t0 = System.nanoTime();
        store.awaitComplete(
            Deadline.in(
                PiranhaConf.get(jobConf, PiranhaConf.INPUT_TIMEOUT_MS),
                "the parents of " + self + " did not all end their streams"),
            abort,
            context::progress);
        counter(PiranhaCounters.inputWaitMs(stage.name()), (System.nanoTime() - t0) / 1_000_000);
        timeline.mark(TaskTimeline.INPUT);
        if (stage.shuffled()) {
          Configuration first = chain.conf(0);
          try (RunMerger merged =
              RunMerger.sorted(store.runs(), new JobContextImpl(first, null).getSortComparator())) {
            chain.runReduce(merged);
          }
        } else {
          Stage parent = plan.stage(plan.parentStages(self.stage()).get(0));
          Configuration pc = parent.last().apply(base);
          chain.runForward(
              store.runs(),
              StepTypes.outputKey(parent.last().kind(), pc),
              StepTypes.outputValue(parent.last().kind(), pc));
        }
      }
      abort.check();
      timeline.mark(TaskTimeline.COMPUTED);
      out.close(outputContext != null ? outputContext : context);
      abort.check();
      timeline.mark(TaskTimeline.DONE);
      report(plan, stage, store, pusher);
      rendezvous.markDone(timeline.encode());
      finished = true;
    } catch (Throwable t) {
      finished = true;
      String reason = abort.aborted() ? abort.reason() : self + " failed: " + describe(t);
      if (rendezvous != null && !abort.aborted()) {
        rendezvous.raiseAbort(reason);
      }
      abort.abort(reason);
      if (t instanceof PiranhaAbortedException p) {
        throw p;
      }
      throw new PiranhaAbortedException(reason, t);
    } finally {
      finished = true;
      if (server != null) {
        server.close();
      }
      if (pusher != null) {
        pusher.close();
      }
      if (store != null) {
        store.close();
      }
      if (rendezvous != null) {
        rendezvous.close();
      }
    }
  }

  private void report(RunPlan plan, Stage stage, ReceiveStore store, Pusher pusher) {
    if (pusher != null) {
      counter(PiranhaCounters.rendezvousWaitMs(stage.name()), pusher.rendezvousWaitMs());
    }
    if (store != null) {
      counter(PiranhaCounters.spills(stage.name()), store.spills());
      counter(PiranhaCounters.spilledBytes(stage.name()), store.spilledBytes());
      for (Map.Entry<Integer, long[]> e : store.receivedByStage().entrySet()) {
        String edge = plan.edgeName(e.getKey(), self.stage());
        counter(PiranhaCounters.receivedRecords(edge), e.getValue()[0]);
        counter(PiranhaCounters.receivedBytes(edge), e.getValue()[1]);
      }
    }
  }

  private void counter(String name, long value) {
    context.getCounter(PiranhaCounters.GROUP, name).increment(value);
  }

  private byte[] secret() throws IOException {
    byte[] s = context.getCredentials().getSecretKey(JobKeys.SECRET);
    if (s == null) {
      throw new IOException(
          "the job's credentials hold no Piranha push secret: submit Piranha jobs through"
              + " PiranhaRunner");
    }
    return s;
  }

  private static String host() throws IOException {
    String nm = System.getenv("NM_HOST");
    return nm != null && !nm.isEmpty() ? nm : InetAddress.getLocalHost().getHostName();
  }

  /**
   * On abort: wake the task's thread, and in a real container halt the JVM if the task's own code
   * does not stop within the grace period (user code may ignore interrupts). The local runner runs
   * tasks as threads of the client's JVM, so there the task is only interrupted.
   */
  private void armAbortHandling(Configuration conf) {
    Thread main = Thread.currentThread();
    boolean local = "local".equals(conf.get("mapreduce.framework.name", "local"));
    int grace = PiranhaConf.get(conf, PiranhaConf.ABORT_GRACE_MS);
    abort.onAbort(
        reason -> {
          LOG.warn("Piranha task {} aborting: {}", self, reason);
          if (finished) {
            return;
          }
          main.interrupt();
          if (!local) {
            Thread watchdog =
                new Thread(
                    () -> {
                      try {
                        Thread.sleep(grace);
                      } catch (InterruptedException e) {
                        return;
                      }
                      if (!finished) {
                        LOG.error(
                            "Piranha task {} did not stop within {} ms of the abort; halting",
                            self,
                            grace);
                        Runtime.getRuntime().halt(3);
                      }
                    },
                    "piranha-abort-watchdog");
            watchdog.setDaemon(true);
            watchdog.start();
          }
        });
  }

  private RecordReader<Object, Object> outerReader() {
    return new RecordReader<>() {
      @Override
      public void initialize(InputSplit split, TaskAttemptContext ctx) {}

      @Override
      public boolean nextKeyValue() throws IOException, InterruptedException {
        return context.nextKeyValue();
      }

      @Override
      public Object getCurrentKey() throws IOException, InterruptedException {
        return context.getCurrentKey();
      }

      @Override
      public Object getCurrentValue() throws IOException, InterruptedException {
        return context.getCurrentValue();
      }

      @Override
      public float getProgress() {
        return context.getProgress();
      }

      @Override
      public void close() {}
    };
  }

  private static String describe(Throwable t) {
    String m = t.getMessage();
    return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }
}
