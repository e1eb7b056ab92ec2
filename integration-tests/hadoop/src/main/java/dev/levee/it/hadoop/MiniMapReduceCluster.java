package dev.levee.it.hadoop;

import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.v2.hs.JobHistoryServer;
import org.apache.hadoop.mapreduce.v2.jobhistory.JHAdminConfig;
import org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.util.ShutdownHookManager;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.AuxServicesAccess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HDFS ({@link MiniDFSCluster}), YARN ({@link MiniYARNCluster}) with several NodeManagers, and a
 * {@link JobHistoryServer}, wired to run MapReduce jobs in separate container JVMs.
 *
 * <p>Built on MiniYARNCluster rather than MiniMRYarnCluster because the latter replaces the
 * NodeManagers' aux services with the shuffle alone; here the services a user declares in yarn-site
 * style keys start on every NodeManager next to the shuffle. Works in any JVM (tests, bench, demo):
 * all state lives under a work directory the caller chooses, and containers get JAVA_HOME from the
 * cluster rather than from the environment.
 */
public final class MiniMapReduceCluster implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(MiniMapReduceCluster.class);

  /**
   * MiniYARNCluster takes its directory from the test.build.data system property at construction;
   * this lock keeps two clusters built at once from seeing each other's value.
   */
  private static final Object YARN_DIR_PROPERTY_LOCK = new Object();

  private static final String YARN_DIR_PROPERTY = "test.build.data";

  private final Path workDir;
  private int nodeManagers;
  private MiniDFSCluster dfs;
  private MiniYARNCluster yarn;
  private JobHistoryServer history;
  private Configuration clientConf;
  private Runnable shutdownHook;
  private boolean closed;
  private List<AutoCloseable> companions = List.of();

  private MiniMapReduceCluster(Path workDir) {
    this.workDir = workDir;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * A copy of the configuration a job client uses (default FS, ResourceManager, JobHistoryServer
   * and the container sizes of {@link MiniClusterSettings}); callers may change their copy freely.
   */
  public Configuration clientConf() {
    return new Configuration(clientConf);
  }

  /**
   * The cluster's HDFS for the client configuration. This is Hadoop's cached instance, shared with
   * everything else in the JVM that uses the cluster: do not close it.
   */
  public FileSystem fileSystem() {
    try {
      return FileSystem.get(clientConf);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the mini cluster's HDFS", e);
    }
  }

  /**
   * Writes the client configuration as a HADOOP_CONF_DIR for clients in other JVMs: the cluster's
   * settings (not Hadoop's defaults) in core-, hdfs-, mapred- and yarn-site.xml alike. One file
   * would not do: Hadoop loads e.g. mapred-default.xml after core-site.xml, which would put
   * mapreduce.framework.name back to local.
   *
   * @return {@code dir}
   */
  public Path writeClientConfDir(Path dir) throws IOException {
    Configuration own = new Configuration(false);
    for (Map.Entry<String, String> entry : clientConf) {
      if (!Builder.fromDefaultsOnly(clientConf, entry.getKey())) {
        own.set(entry.getKey(), entry.getValue());
      }
    }
    Files.createDirectories(dir);
    for (String file :
        List.of("core-site.xml", "hdfs-site.xml", "mapred-site.xml", "yarn-site.xml")) {
      try (OutputStream out = Files.newOutputStream(dir.resolve(file))) {
        own.writeXml(out);
      }
    }
    return dir;
  }

  public int nodeManagerCount() {
    return nodeManagers;
  }

  public NodeManager nodeManager(int index) {
    if (index < 0 || index >= nodeManagerCount()) {
      throw new IndexOutOfBoundsException(
          "NodeManager "
              + index
              + " does not exist; this cluster has "
              + nodeManagerCount()
              + " (0.."
              + (nodeManagerCount() - 1)
              + ")");
    }
    return yarn.getNodeManager(index);
  }

  /** The live instance of an aux service on one NodeManager, found by its type. */
  public <T extends AuxiliaryService> T auxService(int nodeManager, Class<T> type) {
    List<AuxiliaryService> services = auxServices(nodeManager);
    for (AuxiliaryService service : services) {
      if (type.isInstance(service)) {
        return type.cast(service);
      }
    }
    List<String> running = new ArrayList<>();
    services.forEach(s -> running.add(s.getClass().getName()));
    throw new NoSuchElementException(
        "NodeManager "
            + nodeManager
            + " runs no aux service of type "
            + type.getName()
            + "; it runs "
            + running);
  }

  public List<AuxiliaryService> auxServices(int nodeManager) {
    return AuxServicesAccess.services(nodeManager(nodeManager).getNMContext().getAuxServices());
  }

  /**
   * Stops one NodeManager, its containers and its aux services, as losing that node would. The
   * ResourceManager notices when the node's heartbeats stop, after {@code
   * yarn.nm.liveness-monitor.expiry-interval-ms}.
   */
  public void stopNodeManager(int index) {
    nodeManager(index).stop();
  }

  public MiniDFSCluster dfs() {
    return dfs;
  }

  public MiniYARNCluster yarn() {
    return yarn;
  }

  public JobHistoryServer jobHistoryServer() {
    return history;
  }

  /** Where this cluster keeps its state; container logs stay under {@code yarn/} after close. */
  public Path workDir() {
    return workDir;
  }

  /**
   * Closes the cluster when the JVM exits, before Hadoop closes its cached FileSystems (which would
   * make the daemons' own shutdown fail noisily). For the bench and the demo, which have no test
   * framework to do it.
   */
  public synchronized MiniMapReduceCluster closeOnShutdown() {
    if (shutdownHook == null && !closed) {
      shutdownHook = this::close;
      ShutdownHookManager.get()
          .addShutdownHook(shutdownHook, FileSystem.SHUTDOWN_HOOK_PRIORITY + 10);
    }
    return this;
  }

  /**
   * Stops the JobHistoryServer, YARN and HDFS, in that order, each even if an earlier one failed.
   * Deletes the HDFS blocks (bench data can be large) and keeps the YARN directory with the
   * container logs.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    long start = System.nanoTime();
    boolean jvmExiting = ShutdownHookManager.get().isShutdownInProgress();
    List<RuntimeException> failures = new ArrayList<>();
    stopStep("JobHistoryServer", history == null ? null : history::stop, failures);
    stopStep("YARN", yarn == null ? null : yarn::stop, failures);
    // The NodeManagers keep containers' localized files and map outputs for debugging (hundreds of
    // MB per test class); the container logs, which are what one debugs with, stay.
    stopStep("usercache cleanup", yarn == null ? null : this::deleteUserCaches, failures);
    stopStep("HDFS", dfs == null ? null : () -> dfs.shutdown(true), failures);
    for (AutoCloseable companion : companions) {
      stopStep(companion.toString(), () -> closeCompanion(companion), failures);
    }
    if (jvmExiting && dfs != null) {
      // DataNodes cannot finish stopping inside a JVM shutdown (they try to remove their own
      // shutdown hook,
      // which Hadoop refuses then), so MiniDFSCluster never gets to delete its blocks.
      FileUtil.fullyDelete(workDir.resolve("dfs").toFile());
    }
    if (shutdownHook != null && !jvmExiting) {
      ShutdownHookManager.get().removeShutdownHook(shutdownHook);
    }
    LOG.info(
        "Mini MapReduce cluster in {} stopped in {} ms",
        workDir,
        (System.nanoTime() - start) / 1_000_000);
    if (failures.isEmpty()) {
      return;
    }
    if (jvmExiting) {
      failures.forEach(e -> LOG.warn("while the JVM exits: {}", e.getMessage(), e.getCause()));
      return;
    }
    RuntimeException first = failures.get(0);
    failures.subList(1, failures.size()).forEach(first::addSuppressed);
    throw first;
  }

  private void deleteUserCaches() {
    Path yarnDir = workDir.resolve("yarn");
    if (!Files.isDirectory(yarnDir)) {
      return;
    }
    try (Stream<Path> dirs =
        Files.find(
            yarnDir,
            4,
            (p, attrs) -> attrs.isDirectory() && p.getFileName().toString().equals("usercache"))) {
      dirs.forEach(d -> FileUtil.fullyDelete(d.toFile()));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot delete the NodeManagers' usercache under " + yarnDir, e);
    }
  }

  private static void closeCompanion(AutoCloseable companion) {
    try {
      companion.close();
    } catch (Exception e) {
      throw new IllegalStateException("cannot close " + companion, e);
    }
  }

  private static void stopStep(String what, Runnable stop, List<RuntimeException> failures) {
    if (stop == null) {
      return;
    }
    try {
      stop.run();
    } catch (RuntimeException e) {
      failures.add(new IllegalStateException("stopping " + what + " failed: " + e, e));
    }
  }

  private void start(Builder spec) throws IOException {
    long begin = System.nanoTime();
    companions = List.copyOf(spec.companions);
    Configuration conf = MiniClusterSettings.create(workDir, spec.nodeManagerMemoryMb);
    spec.applyUserSettings(conf);
    NodeManagerAuxServices.configure(conf);
    nodeManagers = spec.nodeManagers;

    dfs =
        new MiniDFSCluster.Builder(conf, workDir.resolve("dfs").toFile())
            .numDataNodes(spec.dataNodes)
            .build();
    conf.set(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY, dfs.getURI().toString());

    yarn = newYarnCluster(spec.nodeManagers, workDir.resolve("yarn"));
    if (spec.localDirs != null) {
      linkLocalDirs(spec.nodeManagers, spec.localDirs);
    }
    yarn.init(conf);
    yarn.start();
    if (!nodeManagersRegistered(30_000)) {
      throw new IOException(
          "not all "
              + spec.nodeManagers
              + " NodeManagers registered with the ResourceManager"
              + " within 30 s; see the logs under "
              + workDir.resolve("yarn"));
    }
    for (int i = 0; i < spec.nodeManagers; i++) {
      if (yarn.getNodeManager(i).getServiceState() != Service.STATE.STARTED) {
        throw new IOException(
            "NodeManager " + i + " is " + yarn.getNodeManager(i).getServiceState());
      }
      // MiniYARNCluster tells its NodeManagers only the resource tracker's address; a real
      // yarn-site.xml names the ResourceManager, so aux services there can also ask it about
      // applications (SpongeFiles does, to void an ended application's derived secret).
      String rm = yarn.getConfig().get(YarnConfiguration.RM_ADDRESS);
      yarn.getNodeManager(i).getConfig().set(YarnConfiguration.RM_ADDRESS, rm);
      for (AuxiliaryService s : auxServices(i)) {
        s.getConfig().set(YarnConfiguration.RM_ADDRESS, rm);
      }
    }

    // The AM hands the client over to the JobHistoryServer once the job ends, so jobs need one to
    // finish.
    history = startHistoryServer(new Configuration(yarn.getConfig()));
    clientConf = new Configuration(yarn.getConfig());
    clientConf.set(
        JHAdminConfig.MR_HISTORY_ADDRESS,
        history.getConfig().get(JHAdminConfig.MR_HISTORY_ADDRESS));
    MRWebAppUtil.setJHSWebappURLWithoutScheme(
        clientConf, MRWebAppUtil.getJHSWebappURLWithoutScheme(history.getConfig()));
    LOG.info(
        "Mini MapReduce cluster up in {} ms: {} datanodes, {} NodeManagers, aux services {}, work dir {}",
        (System.nanoTime() - begin) / 1_000_000,
        spec.dataNodes,
        spec.nodeManagers,
        clientConf.get(YarnConfiguration.NM_AUX_SERVICES),
        workDir);
  }

  /**
   * MiniYARNCluster picks each NodeManager's local dir itself, {@code <name>-localDir-nm-<i>_0} in
   * a work directory its constructor names (private, and created only when the NodeManagers
   * initialize), and keeps a directory that already exists there; a link put there first makes the
   * NodeManager use the link's target instead.
   */
  private void linkLocalDirs(int count, java.util.function.IntFunction<Path> targets)
      throws IOException {
    Path testDir;
    try {
      java.lang.reflect.Field field = MiniYARNCluster.class.getDeclaredField("testWorkDir");
      field.setAccessible(true);
      testDir = ((File) field.get(yarn)).toPath();
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IOException(
          "cannot find MiniYARNCluster's work directory to place the local dirs in", e);
    }
    Files.createDirectories(testDir);
    for (int i = 0; i < count; i++) {
      Path target = Files.createDirectories(targets.apply(i));
      Files.createSymbolicLink(
          testDir.resolve(yarn.getName() + "-localDir-nm-" + i + "_0"), target);
    }
  }

  private boolean nodeManagersRegistered(long timeoutMs) throws IOException {
    try {
      return yarn.waitForNodeManagersToConnect(timeoutMs);
    } catch (YarnException e) {
      throw new IOException("cannot ask the ResourceManager for its NodeManagers", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for NodeManagers to register");
    }
  }

  private static MiniYARNCluster newYarnCluster(int nodeManagers, Path dir) {
    synchronized (YARN_DIR_PROPERTY_LOCK) {
      String previous = System.getProperty(YARN_DIR_PROPERTY);
      System.setProperty(YARN_DIR_PROPERTY, dir.toString());
      try {
        // No NodeManager web UIs: nothing here reads them, and each costs seconds of Jetty start.
        // Hadoop 3.4 added that constructor; on 3.3 the UIs start. Looked up, so that one source
        // builds on every line.
        try {
          return MiniYARNCluster.class
              .getConstructor(String.class, int.class, int.class, int.class, boolean.class)
              .newInstance("levee", nodeManagers, 1, 1, false);
        } catch (NoSuchMethodException e) {
          return new MiniYARNCluster("levee", nodeManagers, 1, 1);
        } catch (InvocationTargetException e) {
          throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      } finally {
        if (previous == null) {
          System.clearProperty(YARN_DIR_PROPERTY);
        } else {
          System.setProperty(YARN_DIR_PROPERTY, previous);
        }
      }
    }
  }

  private static JobHistoryServer startHistoryServer(Configuration conf) {
    String host = MiniYARNCluster.getHostname();
    conf.set(JHAdminConfig.MR_HISTORY_ADDRESS, host + ":0");
    conf.set(JHAdminConfig.JHS_ADMIN_ADDRESS, host + ":0");
    MRWebAppUtil.setJHSWebappURLWithoutScheme(conf, host + ":0");
    JobHistoryServer server = new JobHistoryServer();
    server.init(conf);
    server.start();
    return server;
  }

  /** What to start; every setting has a default fit for a two-core machine. */
  public static final class Builder {
    private int nodeManagers = 2;
    private int dataNodes = 2;
    private int nodeManagerMemoryMb = 2048;
    private Path baseDir;
    private java.util.function.IntFunction<Path> localDirs;
    private final List<AutoCloseable> companions = new ArrayList<>();
    // Only what the user set, so Hadoop's defaults never overwrite the cluster's settings on merge.
    private final Configuration userConf = new Configuration(false);

    private Builder() {}

    public Builder nodeManagers(int count) {
      this.nodeManagers = requireAtLeast("nodeManagers", count, 1);
      return this;
    }

    public Builder dataNodes(int count) {
      this.dataNodes = requireAtLeast("dataNodes", count, 1);
      return this;
    }

    /**
     * Memory each NodeManager offers to containers; must hold at least the AM (512 MB) and one
     * task.
     */
    public Builder nodeManagerMemoryMb(int megabytes) {
      this.nodeManagerMemoryMb =
          requireAtLeast(
              "nodeManagerMemoryMb",
              megabytes,
              MiniClusterSettings.AM_MEMORY_MB + MiniClusterSettings.TASK_MEMORY_MB);
      return this;
    }

    /**
     * Directory under which this cluster makes its own work directory; default target/ or a temp
     * dir.
     */
    public Builder baseDir(Path dir) {
      this.baseDir = dir;
      return this;
    }

    /**
     * Puts NodeManager {@code i}'s local dir (map outputs, spills, container work dirs) in {@code
     * dirs.apply(i)}, e.g. a tmpfs mount, instead of under the work directory.
     */
    public Builder nodeManagerLocalDirs(java.util.function.IntFunction<Path> dirs) {
      this.localDirs = Objects.requireNonNull(dirs, "dirs");
      return this;
    }

    /**
     * Settings for every daemon and the job client, as they would appear in core-, hdfs-, yarn- or
     * mapred-site.xml, including aux services ({@code yarn.nodemanager.aux-services} and {@code
     * yarn.nodemanager.aux-services.<name>.class}). Only the values set in {@code extra} (not its
     * loaded defaults) are taken, and they win over the cluster's own settings.
     */
    public Builder configuration(Configuration extra) {
      for (Map.Entry<String, String> entry : extra) {
        if (!fromDefaultsOnly(extra, entry.getKey())) {
          userConf.set(entry.getKey(), entry.getValue());
        }
      }
      return this;
    }

    public Builder set(String key, String value) {
      userConf.set(key, value);
      return this;
    }

    /**
     * Something the cluster's daemons depend on (a ZooKeeper server, a pool directory), closed
     * after them, in the order given, when the cluster closes.
     */
    public Builder closeAfter(AutoCloseable companion) {
      companions.add(Objects.requireNonNull(companion, "companion"));
      return this;
    }

    /** Shorthand for the two yarn-site keys that declare an aux service. */
    public Builder auxService(String name, Class<? extends AuxiliaryService> type) {
      List<String> services =
          new ArrayList<>(userConf.getTrimmedStringCollection(YarnConfiguration.NM_AUX_SERVICES));
      if (!services.contains(name)) {
        services.add(name);
      }
      userConf.setStrings(YarnConfiguration.NM_AUX_SERVICES, services.toArray(new String[0]));
      userConf.set(NodeManagerAuxServices.classKey(name), type.getName());
      return this;
    }

    /** Starts HDFS, YARN and the JobHistoryServer; on failure, stops whatever had started. */
    public MiniMapReduceCluster start() throws IOException {
      // Fail on bad aux service declarations before spending seconds on HDFS.
      Configuration check = new Configuration(false);
      applyUserSettings(check);
      NodeManagerAuxServices.configure(check);

      Path base = baseDir != null ? baseDir : defaultBaseDir();
      Files.createDirectories(base);
      MiniMapReduceCluster cluster =
          new MiniMapReduceCluster(Files.createTempDirectory(base.toAbsolutePath(), "cluster-"));
      try {
        cluster.start(this);
        return cluster;
      } catch (IOException | RuntimeException | Error e) {
        try {
          cluster.close();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
        throw e;
      }
    }

    /** Explicit sets, not addResource: a resource would lose to the cluster's own set() values. */
    private void applyUserSettings(Configuration conf) {
      for (Map.Entry<String, String> entry : userConf) {
        conf.set(entry.getKey(), entry.getValue(), "MiniMapReduceCluster.Builder");
      }
    }

    static boolean fromDefaultsOnly(Configuration conf, String key) {
      String[] sources = conf.getPropertySources(key);
      if (sources == null || sources.length == 0) {
        return false;
      }
      for (String source : sources) {
        if (!source.endsWith("-default.xml")) {
          return false;
        }
      }
      return true;
    }

    private static Path defaultBaseDir() throws IOException {
      File target = new File("target");
      if (target.isDirectory()) {
        return target.toPath().resolve("levee-minicluster");
      }
      return Files.createTempDirectory("levee-minicluster");
    }

    private static int requireAtLeast(String what, int value, int min) {
      if (value < min) {
        throw new IllegalArgumentException(what + "=" + value + ": must be at least " + min);
      }
      return value;
    }
  }
}
