package dev.levee.containers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The configuration directory every node mounts at /opt/hadoop/conf: core-, hdfs-, yarn- and
 * mapred-site.xml (yarn and mapred with Levee's sample lines merged in), zoo.cfg and
 * log4j.properties. Small heaps, short heartbeats, and disk checks that tolerate a full build disk:
 * the machine running this is small and shared.
 */
final class ClusterConf {
  static final String ZK_QUORUM = "zk1:2181,zk2:2181,zk3:2181";
  static final String TASK_JVM = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1";

  /**
   * The options that switch one job back to stock Hadoop on this cluster, whose mapred-site.xml
   * (the sample's lines) switches SpongeFiles' reduce side on (its map side too, for a job that
   * names SpongeFiles' collector); quoted for the client's shell.
   */
  static final String STOCK_JOB =
      "-D mapreduce.job.reduce.shuffle.consumer.plugin.class="
          + "org.apache.hadoop.mapreduce.task.reduce.Shuffle"
          + " -D 'mapreduce.job.map.output.collector.class="
          + "org.apache.hadoop.mapred.MapTask$MapOutputBuffer'";

  private ClusterConf() {}

  static void write(
      Path conf, Path leveeConf, ContainerCluster.NodeSize size, Map<String, String> yarnOverrides)
      throws IOException {
    Map<String, String> core = new LinkedHashMap<>();
    core.put("fs.defaultFS", "hdfs://nn:8020");
    core.put("hadoop.tmp.dir", "/data/tmp");
    SiteFiles.write(conf.resolve("core-site.xml"), core, null, Map.of());

    Map<String, String> hdfs = new LinkedHashMap<>();
    hdfs.put("dfs.replication", "1");
    hdfs.put("dfs.permissions.enabled", "false");
    hdfs.put("dfs.namenode.name.dir", "/data/nn");
    hdfs.put("dfs.datanode.data.dir", "/data/dn");
    hdfs.put("dfs.namenode.rpc-bind-host", "0.0.0.0");
    hdfs.put("dfs.namenode.datanode.registration.ip-hostname-check", "false");
    hdfs.put("dfs.namenode.safemode.extension", "0");
    hdfs.put("dfs.heartbeat.interval", "1");
    SiteFiles.write(conf.resolve("hdfs-site.xml"), hdfs, null, Map.of());

    Map<String, String> yarn = new LinkedHashMap<>();
    yarn.put("yarn.resourcemanager.hostname", "rm");
    yarn.put("yarn.resourcemanager.bind-host", "0.0.0.0");
    yarn.put("yarn.nodemanager.bind-host", "0.0.0.0");
    yarn.put("yarn.nodemanager.address", "0.0.0.0:45454");
    yarn.put("yarn.nodemanager.resource.memory-mb", Integer.toString(size.yarnMemoryMb()));
    yarn.put("yarn.nodemanager.resource.cpu-vcores", "4");
    yarn.put("yarn.scheduler.minimum-allocation-mb", "128");
    yarn.put("yarn.scheduler.maximum-allocation-mb", Integer.toString(size.yarnMemoryMb()));
    yarn.put("yarn.nodemanager.vmem-check-enabled", "false");
    yarn.put("yarn.nodemanager.pmem-check-enabled", "false");
    yarn.put("yarn.nodemanager.local-dirs", "/data/nm-local");
    yarn.put("yarn.nodemanager.log-dirs", "/data/nm-logs");
    yarn.put(
        "yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "99.5");
    yarn.put("yarn.nodemanager.disk-health-checker.min-free-space-per-disk-mb", "0");
    yarn.put("yarn.nodemanager.delete.debug-delay-sec", "600");
    yarn.put("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "300");
    yarn.put("yarn.application.classpath", "/opt/hadoop/conf,/opt/hadoop/lib/*");
    Map<String, String> yarnSized = new LinkedHashMap<>();
    yarnSized.put("levee.sponge.local.pool.size", size.spongePool());
    yarnSized.put("levee.sponge.tracker.poll-period-ms", "300");
    // The sample's secret file, made as its comment tells an operator to (here in the conf dir
    // every node mounts, rather than in /etc/hadoop).
    yarnSized.put("levee.sponge.auth.secret-file", clusterSecret(conf).toString());
    yarnSized.putAll(yarnOverrides);
    SiteFiles.write(
        conf.resolve("yarn-site.xml"), yarn, leveeConf.resolve("yarn-site.xml"), yarnSized);

    Map<String, String> mapred = new LinkedHashMap<>();
    mapred.put("mapreduce.framework.name", "yarn");
    mapred.put("mapreduce.jobhistory.address", "jhs:10020");
    mapred.put("mapreduce.jobhistory.webapp.address", "jhs:19888");
    mapred.put("mapreduce.jobhistory.bind-host", "0.0.0.0");
    mapred.put(
        "mapreduce.application.classpath",
        "/opt/hadoop/conf,/opt/hadoop/lib/*," + spongeJar(leveeConf));
    mapred.put("yarn.app.mapreduce.am.resource.mb", "512");
    mapred.put("yarn.app.mapreduce.am.command-opts", "-Xmx320m " + TASK_JVM);
    mapred.put("yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", "300");
    mapred.put("mapreduce.map.memory.mb", "384");
    mapred.put("mapreduce.reduce.memory.mb", "384");
    mapred.put("mapreduce.map.java.opts", "-Xmx200m " + TASK_JVM);
    mapred.put("mapreduce.reduce.java.opts", "-Xmx200m " + TASK_JVM);
    mapred.put("mapreduce.client.completion.pollinterval", "300");
    mapred.put("mapreduce.job.reduce.slowstart.completedmaps", "1.0");
    SiteFiles.write(
        conf.resolve("mapred-site.xml"), mapred, leveeConf.resolve("mapred-site.xml"), Map.of());

    // What a Hadoop tarball's etc/hadoop/capacity-scheduler.xml holds, with room for several jobs'
    // application masters on small nodes (the default 10% would not fit one).
    SiteFiles.write(
        conf.resolve("capacity-scheduler.xml"),
        Map.of(
            "yarn.scheduler.capacity.root.queues", "default",
            "yarn.scheduler.capacity.root.default.capacity", "100",
            "yarn.scheduler.capacity.root.default.maximum-capacity", "100",
            "yarn.scheduler.capacity.maximum-am-resource-percent", "0.5"),
        null,
        Map.of());

    StringBuilder zoo = new StringBuilder();
    zoo.append("tickTime=500\ninitLimit=20\nsyncLimit=10\ndataDir=/data/zk\nclientPort=2181\n");
    zoo.append("admin.enableServer=false\n4lw.commands.whitelist=srvr,stat,mntr,ruok\n");
    zoo.append("quorumListenOnAllIPs=true\n");
    for (int i = 1; i <= 3; i++) {
      zoo.append("server.").append(i).append("=zk").append(i).append(":2888:3888\n");
    }
    Files.writeString(conf.resolve("zoo.cfg"), zoo);
    Files.writeString(
        conf.resolve("log4j.properties"),
        "log4j.rootLogger=INFO,console\n"
            + "log4j.appender.console=org.apache.log4j.ConsoleAppender\n"
            + "log4j.appender.console.target=System.err\n"
            + "log4j.appender.console.layout=org.apache.log4j.PatternLayout\n"
            + "log4j.appender.console.layout.ConversionPattern=%d{HH:mm:ss,SSS} %-5p %c{1}: %m%n\n");
  }

  /**
   * 32 random bytes, mode 600, in the conf dir; the path every node sees it at. The containers run
   * as root, which may own it.
   */
  private static Path clusterSecret(Path conf) throws IOException {
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    Path file = conf.resolve("levee-sponge.secret");
    Files.write(file, secret);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return Path.of(ContainerCluster.CONF, "levee-sponge.secret");
  }

  /** The SpongeFiles jar as the distribution names it, at its path on every node. */
  static String spongeJar(Path leveeConf) throws IOException {
    return pluginJar(leveeConf, "spongefiles-hadoop");
  }

  /** A plugin's jar ({@code module}-version.jar) as the distribution names it, on every node. */
  static String pluginJar(Path leveeConf, String module) throws IOException {
    try (Stream<Path> jars = Files.list(leveeConf.resolveSibling("jars"))) {
      return jars.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith(module + "-") && n.endsWith(".jar"))
          .map(n -> ContainerCluster.LEVEE + "/jars/" + n)
          .findFirst()
          .orElseThrow(
              () ->
                  new IllegalStateException(
                      "no " + module + " jar in " + leveeConf.resolveSibling("jars")));
    }
  }
}
