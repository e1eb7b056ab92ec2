package dev.levee.piranha;

import dev.levee.config.ConfigKey;
import dev.levee.config.ConfigRegistry;
import dev.levee.config.ConfigSource;
import dev.levee.config.ValueTypes;
import dev.levee.piranha.transport.PortRange;
import org.apache.hadoop.conf.Configuration;

/**
 * Every {@code levee.piranha.*} setting: type, default, allowed values and meaning. Values are read
 * only through these keys ({@code KEY.from(PiranhaConf.source(conf))}); the runner validates the
 * whole set once before it submits anything, so a bad value fails at the client, naming the key,
 * instead of in a task on the cluster.
 */
public final class PiranhaConf {
  private PiranhaConf() {}

  private static final String SINCE = "0.1.0";
  private static final ConfigRegistry.Builder B =
      ConfigRegistry.builder("piranha", "levee.piranha.")
          // The runner's own per-run settings (the DAG, run id, attempt): written by it, not by
          // users.
          .family("levee\\.piranha\\.internal\\..*");

  // ---- rendezvous (ZooKeeper) ----

  public static final ConfigKey<String> ZK_QUORUM =
      B.key("levee.piranha.zookeeper.quorum", ValueTypes.text())
          .defaultValue("")
          .defaultDescription("hadoop.zk.address")
          .doc(
              "ZooKeeper connect string the tasks rendezvous through (children publish host:port, parents"
                  + " read it, any task can raise the run's abort). Empty means Hadoop's own"
                  + " hadoop.zk.address; a run with neither is refused before submission.")
          .since(SINCE)
          .build();

  public static final ConfigKey<String> ZK_ROOT =
      B.key("levee.piranha.zookeeper.root", ValueTypes.nonEmptyText())
          .defaultValue("/levee/piranha")
          .doc(
              "Parent znode of all runs; each run lives in <root>/<run id>/attempt-<k> and the runner"
                  + " deletes it when the run ends.")
          .since(SINCE)
          .build();

  public static final ConfigKey<Integer> ZK_SESSION_TIMEOUT_MS =
      B.key("levee.piranha.zookeeper.session-timeout-ms", ValueTypes.ints(1_000, 600_000))
          .defaultValue("30000")
          .doc(
              "ZooKeeper session timeout of every task and of the runner. A task whose session is lost"
                  + " aborts the run (its registration is gone, so its peers could not trust it).")
          .since(SINCE)
          .build();

  public static final ConfigKey<Integer> ZK_CONNECTION_TIMEOUT_MS =
      B.key("levee.piranha.zookeeper.connection-timeout-ms", ValueTypes.ints(1_000, 600_000))
          .defaultValue("15000")
          .doc("How long a task or the runner waits for its first ZooKeeper connection.")
          .since(SINCE)
          .build();

  public static final ConfigKey<Integer> RENDEZVOUS_TIMEOUT_MS =
      B.key("levee.piranha.rendezvous.timeout-ms", ValueTypes.ints(1_000, 3_600_000))
          .defaultValue("60000")
          .doc(
              "Longest a parent waits for its children to register before it aborts the run. YARN"
                  + " does not start a job's containers at once (no gang scheduling), so this bounds"
                  + " the wait for a child the cluster never starts.")
          .since(SINCE)
          .build();

  public static final ConfigKey<Integer> INPUT_TIMEOUT_MS =
      B.key("levee.piranha.input.timeout-ms", ValueTypes.ints(1_000, 86_400_000))
          .defaultValue("300000")
          .doc(
              "Longest a child waits for all its parents' streams to end before it aborts the run."
                  + " Keep it below mapreduce.task.timeout; the task reports progress while it waits.")
          .since(SINCE)
          .build();

  public static final ConfigKey<Integer> ABORT_GRACE_MS =
      B.key("levee.piranha.abort.grace-ms", ValueTypes.ints(100, 60_000))
          .defaultValue("2000")
          .doc(
              "After the run's abort reaches a task, how long its own code may take to stop before the"
                  + " task's JVM is halted.")
          .since(SINCE)
          .build();

  // ---- transport ----

  public static final ConfigKey<PortRange> TRANSPORT_PORTS =
      B.key(
              "levee.piranha.transport.ports",
              ValueTypes.simple(
                  "0 (any free port) or a range lo-hi of ports between 1024 and 65535",
                  PortRange::parse))
          .defaultValue("0")
          .doc(
              "Ports a task with parents listens on for their pushes; a range for firewalled"
                  + " clusters (the task takes the first free one).")
          .since(SINCE)
          .build();

  public static final ConfigKey<Integer> TRANSPORT_TIMEOUT_MS =
      B.key("levee.piranha.transport.timeout-ms", ValueTypes.ints(1_000, 3_600_000))
          .defaultValue("60000")
          .doc(
              "Connect, read and acknowledgement timeout of a push connection: a parent waits at most"
                  + " this long for its child to acknowledge the end of its stream.")
          .since(SINCE)
          .build();

  public static final ConfigKey<Integer> FRAME_SIZE =
      B.key("levee.piranha.transport.frame-size", ValueTypes.intBytes(4 << 10, 8 << 20))
          .defaultValue("256k")
          .doc(
              "Largest data frame a parent sends; a receiver refuses anything longer with a clear"
                  + " error rather than allocating it.")
          .since(SINCE)
          .build();

  // ---- exchange ----

  public static final ConfigKey<Integer> PUSH_BUFFER =
      B.key("levee.piranha.push.buffer", ValueTypes.intBytes(64 << 10, 1 << 30))
          .defaultValue("16m")
          .doc(
              "Bytes of serialized output a task buffers per child stage before it sorts, combines and"
                  + " pushes them as one run; the combiner and the sort work per run, as on a map"
                  + " task's spill.")
          .since(SINCE)
          .build();

  public static final ConfigKey<Double> RECEIVE_MEMORY_FRACTION =
      B.key("levee.piranha.receive.memory-fraction", ValueTypes.fraction())
          .defaultValue("0.4")
          .doc(
              "Share of a task's heap that holds runs received from its parents; a run that does not"
                  + " fit goes to local disk as it arrives (a sorted run, merged with the others at the"
                  + " end).")
          .since(SINCE)
          .build();

  public static final ConfigKey<Checkpoint> CHECKPOINT =
      B.key("levee.piranha.checkpoint", ValueTypes.enumOf(Checkpoint.class))
          .defaultValue("none")
          .doc(
              "Materialization between stages (the paper's 'checkpointing' configurations): none"
                  + " streams from memory; local writes every pushed run to the parent's local disk"
                  + " (fsynced) and every received run to the child's; dfs writes the parent's runs to"
                  + " the distributed file system first, as a job boundary would.")
          .since(SINCE)
          .build();

  public static final ConfigKey<String> CHECKPOINT_DFS_DIR =
      B.key("levee.piranha.checkpoint.dfs-dir", ValueTypes.nonEmptyText())
          .defaultValue("/tmp/levee-piranha")
          .doc(
              "Where checkpoint=dfs writes runs, under <dir>/<run id>; the runner deletes it when the"
                  + " run ends.")
          .since(SINCE)
          .build();

  // ---- plan ----

  public static final ConfigKey<Boolean> ELIMINATE_REDUNDANT_STAGES =
      B.key("levee.piranha.plan.eliminate-redundant-stages", ValueTypes.bool())
          .defaultValue("true")
          .doc(
              "Fuse a map-only stage into its single parent (a chain's next map runs inside the"
                  + " previous reduce task), removing the stages a chain of MapReduce jobs imposes;"
                  + " false keeps the MapReduce-shaped DAG.")
          .since(SINCE)
          .build();

  // ---- runner ----

  public static final ConfigKey<Boolean> CAPACITY_CHECK =
      B.key("levee.piranha.capacity.check", ValueTypes.bool())
          .defaultValue("true")
          .doc(
              "Before submitting, check that the queue's free resources and the nodes' free room (one"
                  + " container per task plus the ApplicationMaster, packed node by node) hold every"
                  + " task of the DAG at once.")
          .since(SINCE)
          .build();

  public static final ConfigKey<Policy> CAPACITY_POLICY =
      B.key("levee.piranha.capacity.policy", ValueTypes.enumOf(Policy.class))
          .defaultValue("fallback")
          .doc(
              "What to do when the cluster cannot hold the whole DAG (checked before submission, or"
                  + " its tasks did not all start within levee.piranha.schedule.timeout-ms): fallback"
                  + " runs the same plan as chained MapReduce jobs and says so once; fail stops with"
                  + " the needed and available figures.")
          .since(SINCE)
          .build();

  public static final ConfigKey<Integer> SCHEDULE_TIMEOUT_MS =
      B.key("levee.piranha.schedule.timeout-ms", ValueTypes.ints(5_000, 86_400_000))
          .defaultValue("180000")
          .doc(
              "Longest the runner waits, after submission, for every task of an attempt to start and"
                  + " register; then it kills the attempt and applies levee.piranha.capacity.policy.")
          .since(SINCE)
          .build();

  public static final ConfigKey<Integer> MAX_ATTEMPTS =
      B.key("levee.piranha.job.max-attempts", ValueTypes.ints(1, 100))
          .defaultValue("2")
          .doc(
              "Whole-job runs before giving up: a failed task fails its attempt, and the next attempt"
                  + " reruns every task (there is no task-level retry in a push DAG).")
          .since(SINCE)
          .build();

  public static final ConfigKey<Policy> ON_EXHAUSTED =
      B.key("levee.piranha.job.on-exhausted", ValueTypes.enumOf(Policy.class))
          .defaultValue("fallback")
          .doc(
              "After the last failed attempt: fallback runs the plan as chained MapReduce jobs, which"
                  + " retry tasks on their own; fail reports every attempt's cause.")
          .since(SINCE)
          .build();

  public static final ConfigRegistry REGISTRY = B.build();

  /** What the runner does when Piranha cannot run a DAG. */
  public enum Policy {
    FALLBACK,
    FAIL
  }

  /** Materialization of the data pushed between stages. */
  public enum Checkpoint {
    NONE,
    LOCAL,
    DFS
  }

  /** A Hadoop configuration as a source of settings. */
  public static ConfigSource source(Configuration conf) {
    return ConfigSource.ofEntries(conf::get, conf);
  }

  /** The quorum the key names, or Hadoop's own; throws naming both keys when neither is set. */
  public static String quorum(Configuration conf) {
    String own = ZK_QUORUM.from(source(conf));
    if (!own.isEmpty()) {
      return own;
    }
    String hadoop = conf.getTrimmed("hadoop.zk.address", "");
    if (!hadoop.isEmpty()) {
      return hadoop;
    }
    throw new IllegalArgumentException(
        "Piranha needs ZooKeeper for its rendezvous: set "
            + ZK_QUORUM.name()
            + " (or hadoop.zk.address) to a connect string such as zk1:2181,zk2:2181,zk3:2181");
  }

  /** Reads one key from a Hadoop configuration. */
  public static <T> T get(Configuration conf, ConfigKey<T> key) {
    return key.from(source(conf));
  }
}
