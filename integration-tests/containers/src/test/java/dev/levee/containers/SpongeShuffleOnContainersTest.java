package dev.levee.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.sponge.SkewedShuffleJob;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SpongeFiles' reduce side on a cluster of containers: a skewed reducer whose shuffle is larger
 * than its heap spills to its node's pool, then to pools in other containers (other /dev/shm, other
 * network address, reached over the bridge), then to disk; its output equals stock Hadoop's on the
 * same cluster. Then, with that reducer held after its shuffle, the faults only a node boundary
 * makes real: a node holding its remote chunks killed (one copy per chunk: the attempt is rerun;
 * two: the reads fall over), frozen, or cut off the network; the ZooKeeper leader killed mid-job;
 * and an intruder on the network without a secret. Every output equals stock, and every pool is
 * free again after every job.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class SpongeShuffleOnContainersTest {
  static final String GROUP = "Levee SpongeFiles";
  static final int POOL_MB = SharedContainerCluster.POOL_MB;

  /** Where the sample yarn-site.xml puts each node's pool. */
  static final String POOL_DIR = "/dev/shm/levee-sponge";

  static final String JOB_COUNTERS = "org.apache.hadoop.mapreduce.JobCounter";

  /** The reducer's shuffle fetches give up on a dead node within seconds, not minutes. */
  static final String FAST_FETCH_FAILURE =
      "-D mapreduce.reduce.shuffle.connect.timeout=5000"
          + " -D mapreduce.reduce.shuffle.read.timeout=20000"
          // A frozen or cut-off node answers no read: each costs the client's read timeout before
          // it falls over (30 s stock). 10 s is still ten times a loaded 1 MB read here, and keeps
          // the tier's CI time down.
          + " -D levee.sponge.client.read-timeout-ms=10000";

  /**
   * The map-side test's job: two maps of 20,000 records of 1,000 bytes each, so each map's runs (20
   * MB) outgrow its node's pool (16 MiB) and both maps' (40 MB) fit the three pools.
   */
  static final int MAP_SIDE_MAPS = 2;

  static final String MAP_SIDE_SIZE = MAP_SIDE_MAPS + " 20000 1000";

  /** Stock Hadoop's reduce side for one job (the cluster's mapred-site.xml names SpongeFiles'). */
  static final String STOCK_REDUCE =
      "mapreduce.job.reduce.shuffle.consumer.plugin.class="
          + "org.apache.hadoop.mapreduce.task.reduce.Shuffle";

  /** How long a finished job's chunks may stay in pools, at most (the collector's rounds). */
  static final int POOLS_FREE_WITHIN_S = 120;

  private static ContainerCluster cluster;
  private static JobRun stock;

  /** The node the last fault test killed. */
  private static String victim;

  @RegisterExtension static final SharedContainerCluster CLUSTER = new SharedContainerCluster();

  @BeforeAll
  static void start() {
    cluster = CLUSTER.cluster();
  }

  /** Stock Hadoop's run of the job on this cluster (both plugin sides switched off), once. */
  private static synchronized JobRun stock() {
    if (stock == null) {
      stock = skewedJob("stock", ClusterConf.STOCK_JOB);
      assertTrue(stock.succeeded(), "stock job failed: " + stock.tail());
    }
    return stock;
  }

  @Test
  void skewedReducerSpillsIntoOtherContainersMemoryAndMatchesStock() {
    JobRun stock = stock();
    JobRun sponge = skewedJob("sponge", "");
    assertTrue(sponge.succeeded(), "sponge job failed: " + sponge.tail());

    System.err.printf(
        "stock: %s; sponge: %s; sponge bytes written: local memory %d, remote memory %d, local disk %d%n",
        stock.output(),
        sponge.output(),
        sponge.counter(GROUP, "local_memory.bytes_written"),
        sponge.counter(GROUP, "remote_memory.bytes_written"),
        sponge.counter(GROUP, "local_disk.bytes_written"));
    assertEquals(stock.output(), sponge.output(), "SpongeFiles output equals stock");
    assertEquals(0, sponge.counter(GROUP, "shuffle.fallbacks"), "the sponge path ran, no fallback");
    assertEquals(
        0, stock.counter(GROUP, "local_memory.bytes_written"), "stock wrote nothing to sponges");
    // Pools are counted in chunks (the sample configuration's 1 MiB): a pool is full when it holds
    // POOL_MB chunks. Bytes are not exact: the last chunk of a spill file is only partly filled,
    // and where spill files end depends on merge timing.
    long localChunks = sponge.counter(GROUP, "local_memory.chunks_written");
    long remoteChunks = sponge.counter(GROUP, "remote_memory.chunks_written");
    long remote = sponge.counter(GROUP, "remote_memory.bytes_written");
    assertEquals(POOL_MB, localChunks, "the reducer's own node's pool filled up, and no more");
    // Only the two other NodeManager containers hold remote chunks: their pools are the sole
    // remote memory, reached over the bridge network.
    assertEquals(
        2L * POOL_MB,
        remoteChunks,
        "both other containers' pools filled with this reducer's chunks");
    assertTrue(
        remote > 0 && remote <= (2L * POOL_MB) << 20,
        "the remote chunks hold some bytes and no more than two pools, got " + remote);
    assertTrue(sponge.counter(GROUP, "local_disk.bytes_written") > 0, "the rest went to disk");
    assertEquals(
        remote,
        sponge.counter(GROUP, "remote_memory.bytes_read"),
        "every remote chunk was read back");
    assertPoolsFree("the skewed job");
  }

  /**
   * A container cannot map another node's pool: each NodeManager's pool lives in its own {@code
   * /dev/shm} (a tmpfs per container, sized by {@code --shm-size}), so a file one node puts there
   * is seen by no other container, and the only way to another node's chunks is its server's
   * authenticated wire (the intruder tests). A deployment that shared the host's IPC namespace or
   * mounted one /dev/shm into every node would fail here.
   */
  @Test
  void noContainerSeesAnotherNodesPool() {
    List<String> nodes =
        List.of(cluster.nodeManager(1), cluster.nodeManager(2), cluster.nodeManager(3), "client");
    for (int i = 1; i <= 3; i++) {
      String owner = cluster.nodeManager(i);
      Docker.Result pool = cluster.tryExec(30, owner, "ls " + POOL_DIR);
      assertEquals(0, pool.exitCode(), owner + " has its pool at " + POOL_DIR + ": " + pool.err());
      String marker = "/dev/shm/levee-it-only-" + owner;
      assertEquals(0, cluster.tryExec(30, owner, "echo " + owner + " > " + marker).exitCode());
      try {
        for (String other : nodes) {
          if (!other.equals(owner)) {
            Docker.Result seen = cluster.tryExec(30, other, "cat " + marker);
            assertTrue(
                seen.exitCode() != 0 && !seen.out().contains(owner),
                other + " sees " + owner + "'s /dev/shm: " + seen.out());
          }
        }
      } finally {
        cluster.tryExec(30, owner, "rm -f " + marker);
      }
    }
    Docker.Result clientPool = cluster.tryExec(30, "client", "ls " + POOL_DIR);
    assertTrue(clientPool.exitCode() != 0, "the client container has no pool: " + clientPool.out());
  }

  /**
   * The map side, switched on per job as the sample's commented lines tell an operator: two maps of
   * 20 MB output each through a 1 MB sort buffer spill their runs into the sponge pools (their
   * node's, then the other containers'), never to local disk, and merge them in one round; the
   * output equals stock's with the same sort buffer. The reduce side is stock in both runs, so the
   * sponge counters are the maps' alone.
   */
  @Test
  void mapsSpillIntoTheSpongePoolsNotLocalDiskAndMatchStock() {
    String sort =
        " -D mapreduce.task.io.sort.mb=1 -D mapreduce.task.io.sort.factor=3 -D "
            + STOCK_REDUCE
            + " ";
    JobRun stockMaps = skewedJob("map-stock", ClusterConf.STOCK_JOB + sort, MAP_SIDE_SIZE);
    JobRun spongeMaps =
        skewedJob(
            "map-sponge",
            "-D mapreduce.job.map.output.collector.class="
                + "dev.levee.sponge.hadoop.SpongeMapOutputCollector"
                + sort,
            MAP_SIDE_SIZE);
    assertTrue(stockMaps.succeeded(), "stock job failed: " + stockMaps.tail());
    assertTrue(spongeMaps.succeeded(), "map-side sponge job failed: " + spongeMaps.tail());
    long spillBytes = spongeMaps.counter(GROUP, "map.spill_bytes");
    long local = spongeMaps.counter(GROUP, "local_memory.bytes_written");
    long remote = spongeMaps.counter(GROUP, "remote_memory.bytes_written");
    System.err.printf(
        "map side: stock %s; sponge %s; %d runs, %d B: local memory %d, remote memory %d, disk %d;"
            + " merge rounds %d%n",
        stockMaps.output(),
        spongeMaps.output(),
        spongeMaps.counter(GROUP, "map.spills"),
        spillBytes,
        local,
        remote,
        spongeMaps.counter(GROUP, "local_disk.bytes_written"),
        spongeMaps.counter(GROUP, "map.merge_rounds"));
    assertEquals(stockMaps.output(), spongeMaps.output(), "output equals stock");
    assertEquals(0, spongeMaps.counter(GROUP, "map.fallbacks"), "no map fell back to stock");
    assertTrue(
        spongeMaps.counter(GROUP, "map.spills") >= 3L * MAP_SIDE_MAPS,
        "each map spilled several runs");
    assertEquals(
        MAP_SIDE_MAPS, spongeMaps.counter(GROUP, "map.merge_rounds"), "one merge round per map");
    assertTrue(spillBytes > 0, "the maps' runs went through SpongeFiles");
    assertEquals(spillBytes, local + remote, "every run in a sponge pool, here or on another node");
    assertTrue(
        local > 0 && remote > 0, "runs in the map's own node's pool and in other containers'");
    assertEquals(0, spongeMaps.counter(GROUP, "local_disk.bytes_written"), "no run on disk");
    assertEquals(0, stockMaps.counter(GROUP, "map.spills"), "stock ran no SpongeFiles code");
    assertPoolsFree("the map-side job");
  }

  @Test
  void aKilledNodeHoldingTheReducersOnlyCopiesFailsTheAttemptAndTheRerunMatchesStock()
      throws Exception {
    JobRun run = faultANodeHoldingTheReducersChunks("lost-one-copy", 1, Fault.KILL);
    assertTrue(run.succeeded(), "the job survives the node: " + run.tail());
    String failure = run.firstTaskFailure();
    assertTrue(
        failure.contains("sponge") && failure.contains(victim),
        "the first attempt failed reading a chunk on the killed node " + victim + ": " + failure);
    assertEquals(stock().output(), run.output(), "the rerun's output equals stock");
    assertTrue(
        run.counter(JOB_COUNTERS, "NUM_FAILED_REDUCES") >= 1,
        "the attempt whose chunks died with the node failed and was rerun: "
            + run.counter(JOB_COUNTERS, "NUM_FAILED_REDUCES"));
  }

  /**
   * While the reducer's chunks are held, an intruder on the network is refused everything (see
   * {@link #assertAnIntruderIsRefusedEverything}); then a node holding one of each remote chunk's
   * two copies is killed, and the reducer reads every chunk from the live copies. One held job for
   * both, to keep the tier's CI time down.
   */
  @Test
  void anIntruderGetsNothingThenAKilledNodeHoldingOneOfTwoCopiesCostsNoRerun() throws Exception {
    JobRun run =
        faultANodeHoldingTheReducersChunks(
            "lost-two-copies",
            2,
            Fault.KILL,
            () -> {
              assertAnIntruderIsRefusedEverything();
              assertAnotherTenantsTaskIsRefusedTheVictimsChunks();
            });
    assertSurvivedByFailingOver(run, "killed");
  }

  /**
   * A frozen node ({@code docker pause}: its processes stop, its kernel still accepts connections)
   * holding one of each remote chunk's two copies: every read waits at most the client's read
   * timeout before it falls over, the job finishes without a rerun, and its output equals stock.
   */
  @Test
  void aFrozenNodeHoldingOneOfTwoCopiesHangsNothing() throws Exception {
    JobRun run = faultANodeHoldingTheReducersChunks("frozen-two-copies", 2, Fault.PAUSE);
    assertSurvivedByFailingOver(run, "frozen");
  }

  /**
   * A node cut off the network ({@code docker network disconnect}) while it holds one of each
   * remote chunk's two copies, then healed: reads fall over to the live copies, nothing is rerun,
   * the output equals stock, and once the partition heals the node frees the finished job's chunks
   * it held through the partition.
   */
  @Test
  void aPartitionedNodeHoldingOneOfTwoCopiesCostsNoRerunAndLeaksNothingOnceHealed()
      throws Exception {
    JobRun run = faultANodeHoldingTheReducersChunks("partitioned-two-copies", 2, Fault.PARTITION);
    assertSurvivedByFailingOver(run, "cut-off");
  }

  /**
   * With two copies of each remote chunk, a job beside a faulted node finishes with stock's output,
   * no reduce attempt fails, and some reads fell over from the faulted node to their other copy.
   */
  private static void assertSurvivedByFailingOver(JobRun run, String node) {
    assertTrue(run.succeeded(), "the job finishes beside the " + node + " node: " + run.tail());
    assertEquals(stock().output(), run.output(), "output equals stock");
    assertEquals(
        0,
        run.counter(JOB_COUNTERS, "NUM_FAILED_REDUCES"),
        "no reduce attempt failed: every read fell over to the live copy");
    assertTrue(
        run.counter(GROUP, "remote.replica_failovers") > 0,
        "reads of chunks on the " + node + " node fell over to their other copy");
    assertEquals(0, run.counter(GROUP, "shuffle.fallbacks"), "the sponge path ran, no fallback");
  }

  /**
   * A machine on the cluster's network that holds no secret (the client container), while a
   * reducer's chunks sit in all three pools, tries on every sponge server to store a chunk and to
   * read and free chunks 0..15 with made-up capabilities: with no credential, with a made-up secret
   * for the running application and for a node. The sample configuration requires authentication,
   * so every attempt is refused; the job reading its chunks afterwards and matching stock shows
   * nothing was freed or overwritten.
   */
  private static void assertAnIntruderIsRefusedEverything() {
    Docker.Result r = cluster.intrude();
    String[] lines = r.out().strip().split("\n");
    long refused = java.util.Arrays.stream(lines).filter(l -> l.contains("\trefused: ")).count();
    System.err.printf(
        "intruder: %d attempts, %d refused; first: %s%n", lines.length, refused, lines[0]);
    assertEquals(0, r.exitCode(), "no store, read or free was served: " + r.out());
    assertEquals(
        3L * 3 * (1 + 2 * 16),
        refused,
        "each of 3 servers refused all 33 attempts under each of 3 credentials: " + r.out());
  }

  /**
   * A task of another application on the same cluster, holding its own application's real shuffle
   * secret (the one its node's server accepts), while the held reducer's chunks sit in all three
   * pools: claiming the victim's name with its own secret, every attempt on every server is
   * refused; under its own name (a connection its own node's server accepts), reading the victim's
   * chunk numbers with made-up capabilities is refused and freeing them frees nothing (every pool's
   * free count unchanged). The victim's job then reads its chunks, output as stock.
   */
  private static void assertAnotherTenantsTaskIsRefusedTheVictimsChunks() {
    Docker.Result r = cluster.tenantIntrude("/tenant-intruder/out");
    assertEquals(0, r.exitCode(), "the other tenant's job ran: " + r.err());
    List<String> lines =
        java.util.Arrays.stream(r.out().split("\n"))
            .filter(l -> l.startsWith("INTRUDER\t"))
            .toList();
    List<String> readsAndFrees =
        lines.stream().filter(l -> l.split("\t")[3].matches("(read|free) \\d+")).toList();
    Map<String, Long> outcomes =
        lines.stream()
            .collect(
                java.util.stream.Collectors.groupingBy(
                    l -> l.split("\t")[2] + ": " + l.split("\t")[4].replaceAll("\\d+", "N"),
                    java.util.TreeMap::new,
                    java.util.stream.Collectors.counting()));
    System.err.printf("another tenant's task: %d attempts; outcomes %s%n", lines.size(), outcomes);
    assertTrue(
        r.out().contains("BREACHES\t0"), "no read, free or foreign store served: " + r.out());
    assertEquals(
        3 * 2 * 2 * 16,
        readsAndFrees.size(),
        "16 reads and 16 frees on each of 3 servers in each of 2 guises: " + r.out());
    assertTrue(
        readsAndFrees.stream()
            .allMatch(
                l ->
                    l.split("\t")[4].startsWith("refused: ")
                        || (l.split("\t")[3].startsWith("free ")
                            && l.split("\t")[4].startsWith("no error"))),
        "every read of the victim's chunk numbers refused: " + outcomes);
    // A free the server refused as "no such chunk" returns quietly to the client, as a free of a
    // chunk already gone does; the servers' counts show none of the victim's chunks went.
    String before = valueOf(r.out(), "POOLS_BEFORE");
    assertEquals(
        before, valueOf(r.out(), "POOLS_AFTER"), "no chunk of the victim's was freed: " + before);
  }

  private static String valueOf(String out, String key) {
    return java.util.Arrays.stream(out.split("\n"))
        .filter(l -> l.startsWith(key + "\t"))
        .map(l -> l.substring(key.length() + 1))
        .findFirst()
        .orElse("(no " + key + " line)");
  }

  /**
   * The ZooKeeper ensemble's leader killed while the job's maps run: the sponge servers stay
   * registered and the tracker keeps answering through the two survivors, so the reducer still
   * fills the two other containers' pools, and its output equals stock.
   */
  @Test
  void theZooKeeperLeaderKilledMidJobCostsNothing() throws Exception {
    CompletableFuture<JobRun> job =
        CompletableFuture.supplyAsync(() -> skewedJob("zk-leader-lost", ""));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    boolean mapsRun = false;
    while (!mapsRun && System.nanoTime() < deadline && !job.isDone()) {
      for (int i = 1; i <= cluster.nodeManagers() && !mapsRun; i++) {
        mapsRun = cluster.runs(cluster.nodeManager(i), "YarnChild");
      }
      Thread.sleep(300);
    }
    assertTrue(mapsRun, "the job's tasks started: " + (job.isDone() ? job.get().tail() : ""));
    String leader = cluster.zooKeeperLeader();
    System.err.printf("zk-leader-lost: tasks running, killing the ZooKeeper leader %s%n", leader);
    JobRun run;
    try {
      cluster.kill(leader);
      run = job.get(10, TimeUnit.MINUTES);
    } finally {
      cluster.startAgain(leader);
    }
    assertTrue(run.succeeded(), "the job survives the leader's loss: " + run.tail());
    assertEquals(stock().output(), run.output(), "output equals stock");
    assertEquals(
        2L * POOL_MB,
        run.counter(GROUP, "remote_memory.chunks_written"),
        "the tracker still offered both other containers' pools");
    assertEquals(0, run.counter(GROUP, "shuffle.fallbacks"), "the sponge path ran, no fallback");
    assertPoolsFree("zk-leader-lost");
  }

  /**
   * The reducer's own node reaches its memory limit while the reducer holds chunks in all three
   * pools: the kernel's OOM killer ends the reducer's JVM (no shutdown hook, no finally: nothing of
   * it frees a chunk), the NodeManager and its sponge server live on, the attempt is rerun and its
   * output equals stock, and every pool is free again, the dead attempt's chunks included.
   */
  @Test
  void theKernelsOomKillerEndingTheReducerLeaksNoChunkAndTheRerunMatchesStock() throws Exception {
    JobRun run =
        faultANodeHoldingTheReducersChunks("oom-killed-reducer", 1, Fault.OOM_KILL_REDUCER);
    assertTrue(run.succeeded(), "the job survives its reducer's OOM kill: " + run.tail());
    assertEquals(stock().output(), run.output(), "the rerun's output equals stock");
    assertTrue(
        run.counter(JOB_COUNTERS, "NUM_FAILED_REDUCES") >= 1,
        "the killed attempt failed and was rerun: " + run.firstTaskFailure());
    assertTrue(cluster.runs(victim, "NodeManager"), "the NodeManager on " + victim + " lives on");
  }

  /** What happens to the chosen node, and how it comes back. */
  enum Fault {
    KILL,
    PAUSE,
    PARTITION,
    /** Not another node: the reducer's own, whose memory limit the kernel enforces on it. */
    OOM_KILL_REDUCER
  }

  /** The held reducer's JVM: YarnChild running the first attempt of reduce 0. */
  static final String HELD_REDUCER = "YarnChild .*_r_000000_0 ";

  /**
   * Runs the job with its reducer held after the shuffle, kills ({@code docker kill}) or freezes
   * ({@code docker pause}) a NodeManager that runs neither the reducer nor the application master
   * (so it holds the reducer's remote chunks and some map outputs), releases the reducer, and
   * returns the job's run. The node is started or thawed afterwards, whatever happened.
   */
  private static JobRun faultANodeHoldingTheReducersChunks(String name, int replicas, Fault fault)
      throws Exception {
    return faultANodeHoldingTheReducersChunks(name, replicas, fault, () -> {});
  }

  /** {@link #faultANodeHoldingTheReducersChunks}, running {@code whileHeld} before the fault. */
  private static JobRun faultANodeHoldingTheReducersChunks(
      String name, int replicas, Fault fault, Runnable whileHeld) throws Exception {
    String hold = "/holds/" + name;
    CompletableFuture<JobRun> job =
        CompletableFuture.supplyAsync(
            () ->
                skewedJob(
                    name,
                    "-D levee.sponge.remote.replicas="
                        + replicas
                        + " -D "
                        + SkewedShuffleJob.REDUCE_HOLD_DIR
                        + "="
                        + hold
                        + " "
                        + FAST_FETCH_FAILURE));
    Docker.Result ready =
        cluster.tryExec(
            420,
            "client",
            ContainerCluster.clientJava(
                "dev.levee.containers.jobs.ReduceHold", "await " + hold + " 360"));
    if (ready.exitCode() != 0) {
      cluster.tryExec(
          60,
          "client",
          ContainerCluster.clientJava("dev.levee.containers.jobs.ReduceHold", "release " + hold));
      throw new AssertionError(
          "the reducer never reached its hold: "
              + ready.out()
              + job.get(10, TimeUnit.MINUTES).tail());
    }
    String reducerNode = ready.out().strip().split("\t")[1];
    victim = fault == Fault.OOM_KILL_REDUCER ? reducerNode : null;
    for (int i = 1; i <= cluster.nodeManagers() && victim == null; i++) {
      String node = cluster.nodeManager(i);
      if (!node.equals(reducerNode) && !cluster.runs(node, "MRAppMaster")) {
        victim = node;
      }
    }
    assertTrue(victim != null, "a NodeManager runs neither the reducer nor the application master");
    System.err.printf("%s: reducer on %s, %s %s%n", name, reducerNode, fault, victim);
    long released = 0;
    JobRun run;
    try {
      whileHeld.run();
      switch (fault) {
        case KILL -> cluster.kill(victim);
        case PAUSE -> cluster.pause(victim);
        case PARTITION -> cluster.disconnect(victim);
        case OOM_KILL_REDUCER -> assertOomKilled(cluster.oomKill(victim, HELD_REDUCER));
      }
      released = System.nanoTime();
      cluster.tryExec(
          60,
          "client",
          ContainerCluster.clientJava("dev.levee.containers.jobs.ReduceHold", "release " + hold));
      run = job.get(10, TimeUnit.MINUTES);
      System.err.printf(
          "%s: %d s from release to the job's end; failed reduce attempts %d, failed/killed maps %d/%d, replica failovers %d,"
              + " remote chunks written %d; first task failure: %s%n",
          name,
          (System.nanoTime() - released) / 1_000_000_000L,
          run.counter(JOB_COUNTERS, "NUM_FAILED_REDUCES"),
          run.counter(JOB_COUNTERS, "NUM_FAILED_MAPS"),
          run.counter(JOB_COUNTERS, "NUM_KILLED_MAPS"),
          run.counter(GROUP, "remote.replica_failovers"),
          run.counter(GROUP, "remote_memory.chunks_written"),
          run.firstTaskFailure());
    } finally {
      switch (fault) {
        case KILL -> cluster.restart(victim);
        case PAUSE -> cluster.unpause(victim);
        case PARTITION -> cluster.reconnect(victim);
        case OOM_KILL_REDUCER -> {} // nothing of the node's but the reducer went
      }
    }
    assertPoolsFree(name);
    return run;
  }

  /** The kernel counted an OOM kill in the node's cgroup, and the held reducer is gone. */
  private static void assertOomKilled(ContainerCluster.OomKill kill) {
    System.err.printf("oom: %s%n", kill);
    assertTrue(
        kill.killsAfter() > kill.killsBefore(),
        "the container reached its memory limit and the kernel killed: " + kill);
    assertTrue(!kill.victimAlive(), "the process the kernel killed is the held reducer: " + kill);
  }

  /**
   * Every NodeManager's pool is entirely free again soon after a job ends, whatever happened to its
   * nodes: the chunks a frozen or cut-off node held for the job, which the reducer could not free,
   * are freed once it is back (the application's end on that node, or its collector).
   */
  private static void assertPoolsFree(String after) {
    long t0 = System.nanoTime();
    Docker.Result pools = cluster.awaitSpongePoolsFree(POOLS_FREE_WITHIN_S);
    System.err.printf(
        "%s: pools %s after %d s: %s%n",
        after,
        pools.exitCode() == 0 ? "all free" : "NOT free",
        (System.nanoTime() - t0) / 1_000_000_000L,
        pools.out().strip().replace('\n', ';'));
    assertEquals(
        0,
        pools.exitCode(),
        "every sponge pool is free again within "
            + POOLS_FREE_WITHIN_S
            + " s after "
            + after
            + ": "
            + pools.out()
            + pools.err());
  }

  private static JobRun skewedJob(String name, String options) {
    return skewedJob(name, options, TierJobs.SKEWED_SIZE);
  }

  private static JobRun skewedJob(String name, String options, String size) {
    return TierJobs.skewedShuffle(cluster, name, options, size);
  }
}
