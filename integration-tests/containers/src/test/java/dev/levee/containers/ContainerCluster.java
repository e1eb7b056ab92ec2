package dev.levee.containers;

import static dev.levee.containers.Docker.docker;
import static dev.levee.containers.Docker.tryDocker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * A Hadoop cluster in which every node is its own container on a private bridge network: three
 * ZooKeeper servers, a NameNode, a DataNode, a JobHistoryServer, a ResourceManager, NodeManagers
 * and a client. Each daemon is started from its main class on the jars Maven assembled
 * (target/cluster/hadoop-lib); Levee comes from the distribution tarball, unpacked to /opt/levee on
 * every node as an operator would, and its sample yarn-site.xml and mapred-site.xml are merged into
 * the cluster's.
 *
 * <p>Every container and the network carry the label {@code levee.cluster=<name>}; {@link #close}
 * removes them whatever happened (and {@link #start} first removes any an interrupted run left),
 * after copying each container's log to target/cluster/<name>/logs.
 */
final class ContainerCluster implements AutoCloseable {
  static final String HADOOP_LIB = "/opt/hadoop/lib";
  static final String CONF = "/opt/hadoop/conf";
  static final String LEVEE = "/opt/levee";
  static final String JOBS_JAR = "/opt/jobs/levee-container-jobs.jar";

  /**
   * integration-tests/hadoop's test jar: the jobs' mappers and reducers, shipped as the job jar.
   */
  static final String JOB_JAR = "/opt/jobs/it-hadoop-tests.jar";

  /** The bench's data generators (the web pages of Piranha's paper queries), client side only. */
  static final String BENCH_JAR = "/opt/jobs/bench-core.jar";

  /** The command-line library bench-core's dataset generators parse their options with. */
  static final String PICOCLI_JAR = "/opt/jobs/picocli.jar";

  /** The bench's Hadoop jobs (the SpongeFiles paper's Median job): a job jar too. */
  static final String BENCH_HADOOP_JAR = "/opt/jobs/bench-hadoop.jar";

  static final String HADOOP_SHARE = "/opt/hadoop/share";

  /** Pig and what it brings that Hadoop does not, for the client's Pig runs. */
  static final String PIG_LIB = "/opt/pig/lib";

  /** Spark's jars as {@code SPARK_HOME/jars}, for the standalone cluster and spark-submit. */
  static final String SPARK_HOME = "/opt/spark";

  /** The Spark job the client submits (integration-tests/containers-spark). */
  static final String SPARK_JOB_JAR = "/opt/jobs/it-containers-spark.jar";

  static final String CLASSPATH = CONF + ":" + HADOOP_SHARE + ":" + HADOOP_LIB + "/*";
  static final String JVM_FLAGS = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss512k";

  /** How each NodeManager container is sized. */
  record NodeSize(String memoryLimit, String shmSize, String spongePool, int yarnMemoryMb) {}

  private final String name;
  private final int nodeManagers;
  private final NodeSize nodeSize;
  private final Map<String, String> yarnOverrides;
  private final Path dir;
  private final List<String> started = new ArrayList<>();
  private String image;

  ContainerCluster(
      String name, int nodeManagers, NodeSize nodeSize, Map<String, String> yarnOverrides) {
    this.name = name;
    this.nodeManagers = nodeManagers;
    this.nodeSize = nodeSize;
    this.yarnOverrides = yarnOverrides;
    this.dir = Path.of("target", "cluster", name).toAbsolutePath();
  }

  String network() {
    return "levee-" + name;
  }

  /** The container running node {@code node} (zk1, nn, rm, nm1, client, ...). */
  String container(String node) {
    return "levee-" + name + "-" + node;
  }

  int nodeManagers() {
    return nodeManagers;
  }

  String nodeManager(int i) {
    return "nm" + i;
  }

  ContainerCluster start() throws IOException {
    long t0 = System.nanoTime();
    image = buildImage();
    removeLeftovers();
    prepareFiles();
    docker(60, "network", "create", "--label", label(), network());
    for (int i = 1; i <= 3; i++) {
      daemon(
          "zk" + i,
          List.of(),
          "mkdir -p /data/zk && echo "
              + i
              + " > /data/zk/myid && exec "
              + java(
                  "-Xmx128m",
                  "org.apache.zookeeper.server.quorum.QuorumPeerMain " + CONF + "/zoo.cfg"));
    }
    daemon(
        "nn",
        List.of(),
        java(
                "-Xmx256m",
                "org.apache.hadoop.hdfs.server.namenode.NameNode -format -force -nonInteractive")
            + " && exec "
            + java("-Xmx256m", "org.apache.hadoop.hdfs.server.namenode.NameNode"));
    daemon(
        "dn1",
        List.of(),
        "exec " + java("-Xmx192m", "org.apache.hadoop.hdfs.server.datanode.DataNode"));
    daemon(
        "jhs",
        List.of(),
        "exec " + java("-Xmx256m", "org.apache.hadoop.mapreduce.v2.hs.JobHistoryServer"));
    daemon(
        "rm",
        List.of(),
        "exec "
            + java("-Xmx384m", "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager"));
    for (int i = 1; i <= nodeManagers; i++) {
      daemon(
          nodeManager(i),
          List.of(
              "--memory", nodeSize.memoryLimit(),
              "--memory-swap", nodeSize.memoryLimit(),
              "--shm-size", nodeSize.shmSize()),
          // The SpongeFiles jar on the NodeManager's own classpath, as the sample yarn-site.xml
          // tells an operator (share/hadoop/yarn/lib): the relaying ShuffleHandler must load there.
          "exec "
              + java(
                  "-Xmx256m",
                  CLASSPATH + ":" + pluginJar("spongefiles-hadoop"),
                  "org.apache.hadoop.yarn.server.nodemanager.NodeManager"));
    }
    daemon("client", List.of(), "exec sleep infinity");
    Docker.Result up = awaitNodeManagers(180);
    if (up.exitCode() != 0) {
      throw new IllegalStateException(
          "cluster "
              + name
              + " did not come up: "
              + up.out().strip()
              + "; containers: "
              + containers()
              + " (their logs: "
              + dir.resolve("logs")
              + ")");
    }
    System.err.printf(
        "container cluster %s: %s in %d s%n",
        name, up.out().strip(), (System.nanoTime() - t0) / 1_000_000_000L);
    return this;
  }

  /** Runs the client's probe until HDFS takes a write and every NodeManager is RUNNING. */
  private Docker.Result awaitNodeManagers(int seconds) {
    return tryExec(
        seconds + 60L,
        "client",
        clientJava("dev.levee.containers.jobs.AwaitCluster", nodeManagers + " " + seconds));
  }

  /** {@code docker kill}: the node's processes get SIGKILL and its address leaves the network. */
  void kill(String node) {
    docker(60, "kill", container(node));
  }

  /**
   * Starts a killed node's container again (its daemon from its main class, a fresh sponge pool)
   * and waits until the ResourceManager counts every NodeManager RUNNING again.
   */
  void restart(String node) {
    startAgain(node);
    awaitBack(node);
  }

  /**
   * Cuts a node off the cluster's network ({@code docker network disconnect}): its processes run
   * on, and nobody reaches them or hears from them.
   */
  void disconnect(String node) {
    docker(60, "network", "disconnect", "-f", network(), container(node));
  }

  /** Heals {@link #disconnect}: the node rejoins under its name, then every NodeManager RUNNING. */
  void reconnect(String node) {
    docker(60, "network", "connect", "--alias", node, network(), container(node));
    awaitBack(node);
  }

  /**
   * Waits until every NodeManager's sponge pool is entirely free (asked over the network, as the
   * tracker asks), at most {@code seconds}; returns what each answered last and whether all were.
   */
  Docker.Result awaitSpongePoolsFree(int seconds) {
    return onSpongeJar(
        "dev.levee.containers.jobs.SpongePools await-free " + seconds + spongeServers(),
        seconds + 60L);
  }

  /** " nm1:7788 nm2:7788 ...": every NodeManager's sponge server, at the sample's port. */
  private String spongeServers() {
    StringBuilder servers = new StringBuilder();
    for (int i = 1; i <= nodeManagers; i++) {
      servers.append(' ').append(nodeManager(i)).append(":7788");
    }
    return servers.toString();
  }

  /** A client-container java command on the cluster's classpath plus the distribution's jar. */
  private Docker.Result onSpongeJar(String mainAndArgs, long timeoutSeconds) {
    return tryExec(
        timeoutSeconds,
        "client",
        "java -Xmx128m "
            + JVM_FLAGS
            + " -cp '"
            + CLASSPATH
            + ":"
            + JOBS_JAR
            + ":"
            + pluginJar("spongefiles-hadoop")
            + "' "
            + mainAndArgs);
  }

  /** A plugin's jar from the distribution, at its path on every node. */
  String pluginJar(String module) {
    try {
      return ClusterConf.pluginJar(dir.resolve("levee/conf"), module);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Each of this cluster's containers with its state, and the web UIs (the ResourceManager's, the
   * NameNode's, each NodeManager's) at the addresses the host reaches them on (the bridge
   * network's).
   */
  String status() {
    String ps = containers();
    if (ps.isEmpty()) {
      return "no container of cluster " + name + " exists";
    }
    StringBuilder b = new StringBuilder(ps).append('\n');
    List<String[]> uis = new ArrayList<>();
    uis.add(new String[] {"rm", "8088", "ResourceManager"});
    uis.add(new String[] {"nn", "9870", "NameNode"});
    uis.add(new String[] {"jhs", "19888", "JobHistoryServer"});
    uis.add(new String[] {SparkStandalone.MASTER, "8080", "Spark master"});
    for (int i = 1; i <= nodeManagers; i++) {
      uis.add(new String[] {nodeManager(i), "8042", "NodeManager " + nodeManager(i)});
    }
    for (String[] ui : uis) {
      String ip =
          tryDocker(
                  30,
                  "inspect",
                  "-f",
                  "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}",
                  container(ui[0]))
              .out()
              .strip();
      if (!ip.isEmpty()) {
        b.append(String.format("%-22s http://%s:%s/%n", ui[2], ip, ui[1]));
      }
    }
    return b.toString().strip();
  }

  /** "name<tab>status" of each of this cluster's containers, a line each. */
  private String containers() {
    return tryDocker(
            60, "ps", "-a", "--filter", "label=" + label(), "--format", "{{.Names}}\t{{.Status}}")
        .out()
        .strip();
  }

  /** Runs {@code jobs.SpongeIntruder} against every NodeManager's sponge server from the client. */
  Docker.Result intrude() {
    return onSpongeJar("dev.levee.containers.jobs.SpongeIntruder" + spongeServers(), 300);
  }

  /**
   * Runs {@code jobs.TenantIntruder} from the client: a job of another application whose task, with
   * its own application's real secret, goes after the running application's chunks on every
   * NodeManager's sponge server.
   */
  Docker.Result tenantIntrude(String output) {
    return tryExec(
        300,
        "client",
        clientJava(
            pluginJar("spongefiles-hadoop"),
            "dev.levee.containers.jobs.TenantIntruder",
            output + spongeServers()));
  }

  /** Starts a killed node's container again, without waiting for it. */
  void startAgain(String node) {
    docker(60, "start", container(node));
  }

  /** The ZooKeeper server that leads the ensemble now, asked with the {@code srvr} command. */
  String zooKeeperLeader() {
    String probe =
        "for i in 1 2 3; do (exec 3<>/dev/tcp/zk$i/2181 && echo srvr >&3 && cat <&3) 2>/dev/null"
            + " | grep -q 'Mode: leader' && echo zk$i; done";
    String leader = tryExec(60, "client", probe).out().strip();
    if (!leader.matches("zk[1-3]")) {
      throw new IllegalStateException("no single ZooKeeper leader: '" + leader + "'");
    }
    return leader;
  }

  /**
   * Brings the node's container to its memory limit so that the kernel's OOM killer ends the
   * process whose command line matches {@code pattern}: raises that process's {@code oom_score_adj}
   * to 1000, the kernel's first choice (otherwise its pick among the node's JVMs depends on their
   * sizes of the moment), then runs {@code jobs.MemoryHog} in the container until its memory cgroup
   * counts an OOM kill. Returns the cgroup's kill count before and after, whether the process lives
   * on, and the hog's exit status (137 when a victim's memory came back too late and the kernel
   * took the hog as well, which a hog run by hand met while this was built).
   */
  OomKill oomKill(String node, String pattern) {
    Docker.Result r =
        tryExec(
            180,
            node,
            "f=/sys/fs/cgroup/memory/memory.oom_control; [ -f $f ] || f=/sys/fs/cgroup/memory.events;"
                // A JVM's own process, not a shell that launched it with the same words.
                + " pid=; for p in $(pgrep -f '"
                + pattern
                + "'); do [ \"$(cat /proc/$p/comm)\" = java ] && pid=$p; done;"
                + " [ -n \"$pid\" ] || { echo no java process matches; exit 3; };"
                + " before=$(sed -n 's/^oom_kill //p' $f);"
                + " echo 1000 > /proc/$pid/oom_score_adj || exit 4;"
                + " java -Xmx16m -XX:MaxDirectMemorySize=16g -XX:+UseSerialGC -cp "
                + JOBS_JAR
                + " dev.levee.containers.jobs.MemoryHog $pid 120 >&2; hog=$?;"
                + " alive=false; [ -e /proc/$pid ] && [ \"$(awk '{print $3}' /proc/$pid/stat)\" != Z ]"
                + " && alive=true;"
                + " echo \"$before $(sed -n 's/^oom_kill //p' $f) $alive $hog\"");
    String[] f = r.out().strip().split(" ");
    if (r.exitCode() != 0 || f.length != 4) {
      throw new IllegalStateException(
          "could not drive " + node + " to its memory limit: " + r.out() + r.err());
    }
    return new OomKill(
        Long.parseLong(f[0]),
        Long.parseLong(f[1]),
        Boolean.parseBoolean(f[2]),
        Integer.parseInt(f[3]),
        r.err().strip());
  }

  /** What {@link #oomKill} saw: the cgroup's OOM kills before and after, and who lives on. */
  record OomKill(
      long killsBefore, long killsAfter, boolean victimAlive, int hogExit, String hogSaid) {}

  /** {@code docker pause}: every process of the node stops (cgroup freezer); sockets stay open. */
  void pause(String node) {
    docker(60, "pause", container(node));
  }

  /** Thaws a paused node and waits until the ResourceManager counts it RUNNING again. */
  void unpause(String node) {
    docker(60, "unpause", container(node));
    awaitBack(node);
  }

  private void awaitBack(String node) {
    Docker.Result up = awaitNodeManagers(180);
    if (up.exitCode() != 0) {
      throw new IllegalStateException(node + " did not come back: " + up.out().strip());
    }
  }

  /** Whether a process whose command line matches {@code pattern} runs in the node's container. */
  boolean runs(String node, String pattern) {
    return tryDocker(30, "exec", container(node), "pgrep", "-f", pattern).exitCode() == 0;
  }

  Docker.Result tryExec(long timeoutSeconds, String node, String command) {
    return tryDocker(timeoutSeconds, "exec", container(node), "bash", "-c", command);
  }

  /** A java command line for the client container, on the cluster's classpath plus the job jars. */
  static String clientJava(String main, String args) {
    return clientJava("", main, args);
  }

  /** The same with {@code jars} (colon-separated, e.g. a plugin's from the distribution) too. */
  static String clientJava(String jars, String main, String args) {
    return "java -Xmx256m "
        + JVM_FLAGS
        + " -cp '"
        + CLASSPATH
        + ":"
        + JOBS_JAR
        + ":"
        + JOB_JAR
        + ":"
        + BENCH_JAR
        + ":"
        + PICOCLI_JAR
        + (jars.isEmpty() ? "" : ":" + jars)
        + "' "
        + main
        + " "
        + args;
  }

  private static String java(String heap, String mainAndArgs) {
    return java(heap, CLASSPATH, mainAndArgs);
  }

  private static String java(String heap, String classpath, String mainAndArgs) {
    return "java "
        + heap
        + " "
        + JVM_FLAGS
        + " -Dhadoop.log.dir=/data/logs -Dyarn.log.dir=/data/logs -cp '"
        + classpath
        + "' "
        + mainAndArgs;
  }

  /**
   * Starts {@code node}'s container on the cluster's network with every node's mounts, {@code
   * limits} (further {@code docker run} options) and {@code command} as its only process.
   */
  void daemon(String node, List<String> limits, String command) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "run",
                "-d",
                "--init",
                "--name",
                container(node),
                "--hostname",
                node,
                "--network",
                network(),
                "--network-alias",
                node,
                "--label",
                label()));
    args.addAll(limits);
    args.addAll(
        List.of(
            "-v",
            System.getProperty("levee.containers.hadoop.lib") + ":" + HADOOP_LIB + ":ro",
            "-v",
            System.getProperty("levee.containers.hadoop.share") + ":" + HADOOP_SHARE + ":ro",
            "-v",
            dir.resolve("conf") + ":" + CONF + ":ro",
            "-v",
            dir.resolve("levee") + ":" + LEVEE + ":ro",
            "-v",
            dir.resolve("jobs") + ":/opt/jobs:ro",
            "-v",
            sparkHome() + ":" + SPARK_HOME + ":ro",
            "-v",
            required("levee.containers.pig.lib", "a directory") + ":" + PIG_LIB + ":ro",
            image,
            "bash",
            "-c",
            command));
    docker(120, args.toArray(String[]::new));
    started.add(node);
  }

  private String label() {
    return "levee.cluster=" + name;
  }

  private static String buildImage() {
    String script = System.getProperty("levee.containers.image.script");
    // The tests never install an engine: .ci/run and ./levee do that, on purpose.
    List<String> command = List.of("env", "LEVEE_DOCKER_NO_INSTALL=1", script);
    Docker.Result r = Docker.run(900, command).orThrow(command);
    String[] lines = r.out().strip().split("\n");
    return lines[lines.length - 1].strip();
  }

  private void removeLeftovers() {
    String ids = tryDocker(60, "ps", "-aq", "--filter", "label=" + label()).out().strip();
    if (!ids.isEmpty()) {
      List<String> rm = new ArrayList<>(List.of("rm", "-f"));
      rm.addAll(List.of(ids.split("\\s+")));
      tryDocker(120, rm.toArray(String[]::new));
    }
    tryDocker(60, "network", "rm", network());
  }

  private void prepareFiles() throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> walk = Files.walk(dir)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    Files.createDirectories(dir.resolve("conf"));
    Files.createDirectories(dir.resolve("levee"));
    Files.createDirectories(dir.resolve("jobs"));
    Files.createDirectories(dir.resolve("logs"));
    Path dist = Path.of(System.getProperty("levee.containers.dist"));
    if (!Files.isRegularFile(dist)) {
      throw new IllegalStateException(
          dist + " is missing: build it with ./levee dist (or mvn -am verify)");
    }
    List<String> untar =
        List.of(
            "tar",
            "-xzf",
            dist.toString(),
            "--strip-components=1",
            "-C",
            dir.resolve("levee").toString());
    Docker.run(120, untar).orThrow(untar);
    jobsJar(
        Path.of(System.getProperty("levee.containers.classes")),
        dir.resolve("jobs/levee-container-jobs.jar"));
    Path jobJar = Path.of(System.getProperty("levee.containers.job-jar"));
    Files.copy(jobJar, dir.resolve("jobs").resolve(Path.of(JOB_JAR).getFileName()));
    // Beside the job jar in target/cluster (the pom copies them there).
    for (String jar : List.of(BENCH_JAR, PICOCLI_JAR, BENCH_HADOOP_JAR)) {
      String file = Path.of(jar).getFileName().toString();
      Files.copy(jobJar.resolveSibling(file), dir.resolve("jobs").resolve(file));
    }
    Files.copy(
        required("levee.containers.spark.job-jar", "a file"),
        dir.resolve("jobs").resolve(Path.of(SPARK_JOB_JAR).getFileName()));
    ClusterConf.write(dir.resolve("conf"), dir.resolve("levee/conf"), nodeSize, yarnOverrides);
  }

  /** Spark's jars, assembled by integration-tests/containers-spark. */
  private static Path sparkHome() {
    return required("levee.containers.spark.home", "a directory");
  }

  /** The path a system property names, which must exist (the build makes it). */
  private static Path required(String property, String what) {
    Path p = Path.of(System.getProperty(property, ""));
    if (!Files.exists(p)) {
      throw new IllegalStateException(
          property
              + "='"
              + p
              + "' is not "
              + what
              + ": the build makes it (./mvnw -am verify -pl integration-tests/containers)");
    }
    return p;
  }

  /** The client's job classes as a job jar (YARN ships it to the tasks). */
  private static void jobsJar(Path classes, Path jar) throws IOException {
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> walk = Files.walk(classes)) {
      for (Path p : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
        out.putNextEntry(new JarEntry(classes.relativize(p).toString().replace('\\', '/')));
        Files.copy(p, out);
        out.closeEntry();
      }
    }
  }

  /** Copies a node's log out, then removes its container (a node the tests no longer need). */
  void remove(String node) {
    saveLog(node);
    started.remove(node);
    tryDocker(60, "rm", "-f", container(node));
  }

  /** Copies each container's log out, then removes every container and the network. */
  @Override
  public void close() {
    started.forEach(this::saveLog);
    started.clear();
    removeLeftovers();
  }

  private void saveLog(String node) {
    Docker.Result logs = tryDocker(60, "logs", container(node));
    try {
      Files.writeString(
          dir.resolve("logs/" + node + ".log"), logs.out() + logs.err(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      System.err.println("cannot save the log of " + node + ": " + e);
    }
  }
}
