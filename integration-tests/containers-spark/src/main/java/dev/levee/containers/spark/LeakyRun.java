package dev.levee.containers.spark;

import dev.levee.leaky.api.LeakyJava;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import scala.Tuple2;

/**
 * The leaky buffer's two headline operations on the container tier's Spark standalone cluster,
 * submitted from the client container with spark-submit: {@code LeakyRun <stock|leaky> <records>
 * <executors>}. It waits for {@code <executors>} executors, then groups {@code <records>} skewed
 * pairs by key and joins them with a smaller uniform side, and prints {@code key=value} lines: an
 * order-independent digest of each output, and for every reduce task of the grouping the host it
 * ran on, the executor's shuffle manager and whether the leaky table class was loaded there.
 *
 * <p>{@code leaky} calls the leaky join (the explicit API, from the distribution's jar that
 * spark.jars ships); {@code stock} calls Spark's join. Which shuffle manager reads the grouping is
 * the configuration's alone (spark-submit's properties file), as for a user's job.
 */
public final class LeakyRun {
  static final String TABLE_CLASS = "dev.levee.leaky.table.LeakyHashTable";
  private static final int KEYS = 2_000;
  private static final int MAPS = 4;
  private static final int REDUCERS = 3;

  private LeakyRun() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3 || !(args[0].equals("stock") || args[0].equals("leaky"))) {
      System.err.println("usage: LeakyRun <stock|leaky> <records> <executors>");
      System.exit(2);
    }
    boolean leaky = args[0].equals("leaky");
    int records = Integer.parseInt(args[1]);
    int executors = Integer.parseInt(args[2]);
    SparkConf conf = new SparkConf().setAppName("levee-leaky-" + args[0]);
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      awaitExecutors(sc, executors, 120);
      RemoteReads reads = new RemoteReads();
      sc.sc().addSparkListener(reads);

      JavaPairRDD<String, String> left = pairs(sc, records, 1, true);
      JavaPairRDD<String, String> right = pairs(sc, KEYS, 2, false);

      List<String> reduceTasks =
          left.groupByKey(REDUCERS).mapPartitions(LeakyRun::digestGroups).collect();
      long groups = 0;
      long values = 0;
      long groupDigest = 0;
      for (String task : reduceTasks) {
        String[] f = task.split(" ");
        groups += Long.parseLong(f[0]);
        values += Long.parseLong(f[1]);
        groupDigest += Long.parseLong(f[2]);
        System.out.println(
            "reduce_task=host=" + f[3] + " manager=" + f[4] + " table_loaded=" + f[5]);
      }
      System.out.println("groups=" + groups);
      System.out.println("grouped_values=" + values);
      System.out.println("group_digest=" + Long.toHexString(groupDigest));
      // Task-end events reach listeners asynchronously: wait for the grouping's maps and reducers.
      reads.awaitTasks(MAPS + REDUCERS, 30);
      System.out.println("group_remote_bytes_read=" + reads.remoteBytes());
      System.out.println("executor_hosts=" + String.join(",", new TreeSet<>(reads.hosts())));

      JavaPairRDD<String, Tuple2<String, String>> joined =
          leaky ? LeakyJava.join(left, right) : left.join(right, REDUCERS);
      List<Long> joinDigest =
          joined
              .mapPartitions(
                  it -> {
                    long pairs = 0;
                    long digest = 0;
                    while (it.hasNext()) {
                      Tuple2<String, Tuple2<String, String>> p = it.next();
                      digest += mix(p._1(), p._2()._1() + "|" + p._2()._2());
                      pairs++;
                    }
                    return List.of(pairs, digest).iterator();
                  })
              .collect();
      long pairs = 0;
      long digest = 0;
      for (int i = 0; i < joinDigest.size(); i += 2) {
        pairs += joinDigest.get(i);
        digest += joinDigest.get(i + 1);
      }
      System.out.println("join_pairs=" + pairs);
      System.out.println("join_digest=" + Long.toHexString(digest));
    }
  }

  /** Waits until {@code n} executors have registered, so the work spreads over the workers. */
  private static void awaitExecutors(JavaSparkContext sc, int n, int seconds)
      throws InterruptedException {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    while (sc.sc().statusTracker().getExecutorInfos().length - 1 < n) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "only "
                + (sc.sc().statusTracker().getExecutorInfos().length - 1)
                + " of "
                + n
                + " executors registered within "
                + seconds
                + " s");
      }
      Thread.sleep(200);
    }
  }

  /**
   * {@code records} pairs made in {@link #MAPS} tasks from a fixed seed: keys skewed (the first key
   * holds about 8 % of them) or one per key, each value distinct.
   */
  private static JavaPairRDD<String, String> pairs(
      JavaSparkContext sc, int records, int seed, boolean skewed) {
    List<Integer> maps = new ArrayList<>();
    for (int m = 0; m < MAPS; m++) {
      maps.add(m);
    }
    return sc.parallelize(maps, MAPS)
        .flatMapToPair(
            m -> {
              Random random = new Random(seed * 1_000L + m);
              List<Tuple2<String, String>> out = new ArrayList<>();
              for (int i = m; i < records; i += MAPS) {
                double u = random.nextDouble();
                int key = skewed ? (int) (KEYS * u * u * u) : i % KEYS;
                out.add(new Tuple2<>("k" + key, "v" + seed + "-" + i));
              }
              return out.iterator();
            });
  }

  /**
   * One reduce task's groups: "groups values digest host manager table-loaded", the digest a sum of
   * one hash per group over its key and its values in sorted order (any order of arrival gives the
   * same).
   */
  private static Iterator<String> digestGroups(Iterator<Tuple2<String, Iterable<String>>> groups)
      throws Exception {
    long n = 0;
    long values = 0;
    long digest = 0;
    while (groups.hasNext()) {
      Tuple2<String, Iterable<String>> g = groups.next();
      SortedSet<String> sorted = new TreeSet<>();
      List<String> all = new ArrayList<>();
      for (String v : g._2()) {
        all.add(v);
        sorted.add(v);
      }
      if (sorted.size() != all.size()) {
        throw new IllegalStateException("a value came twice in the group of " + g._1());
      }
      digest += mix(g._1(), String.join(",", sorted));
      values += all.size();
      n++;
    }
    String host = InetAddress.getLocalHost().getHostName();
    String manager = SparkEnv.get().shuffleManager().getClass().getName();
    boolean table = loaded(Thread.currentThread().getContextClassLoader(), TABLE_CLASS);
    return Collections.singletonList(
            n + " " + values + " " + digest + " " + host + " " + manager + " " + table)
        .iterator();
  }

  /** Whether {@code loader} or one of its parents has loaded the class; never loads it. */
  private static boolean loaded(ClassLoader loader, String name) throws Exception {
    // Spark opens java.lang to unnamed modules on its executors, so the protected method is ours.
    Method find = ClassLoader.class.getDeclaredMethod("findLoadedClass", String.class);
    find.setAccessible(true);
    for (ClassLoader l = loader; l != null; l = l.getParent()) {
      if (find.invoke(l, name) != null) {
        return true;
      }
    }
    return false;
  }

  private static long mix(String key, String value) {
    long h = 0xcbf29ce484222325L;
    for (char c : (key + "\u0000" + value).toCharArray()) {
      h = (h ^ c) * 0x100000001b3L;
    }
    return h ^ (h >>> 29);
  }

  /** Shuffle bytes the tasks fetched from other executors, and the hosts tasks ran on. */
  static final class RemoteReads extends SparkListener {
    private long remoteBytes;
    private int tasks;
    private final java.util.Set<String> hosts = new java.util.HashSet<>();

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
      hosts.add(end.taskInfo().host());
      tasks++;
      notifyAll();
      if (end.taskMetrics() != null) {
        remoteBytes += end.taskMetrics().shuffleReadMetrics().remoteBytesRead();
      }
    }

    synchronized void awaitTasks(int n, int seconds) throws InterruptedException {
      long deadline = System.currentTimeMillis() + seconds * 1000L;
      while (tasks < n && System.currentTimeMillis() < deadline) {
        wait(Math.max(1, deadline - System.currentTimeMillis()));
      }
      if (tasks < n) {
        throw new IllegalStateException(
            "saw " + tasks + " of " + n + " tasks end in " + seconds + " s");
      }
    }

    synchronized long remoteBytes() {
      return remoteBytes;
    }

    synchronized java.util.Set<String> hosts() {
      return new java.util.HashSet<>(hosts);
    }
  }
}
