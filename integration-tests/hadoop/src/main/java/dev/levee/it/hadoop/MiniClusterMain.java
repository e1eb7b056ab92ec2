package dev.levee.it.hadoop;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a {@link MiniMapReduceCluster} as a process of its own (the demo, or a bench that submits
 * from other JVMs) until it is stopped with Ctrl-C or SIGTERM. Writes the client configuration into
 * a directory that works as HADOOP_CONF_DIR: put it first on a client's classpath, or pass its
 * core-site.xml with {@code -conf}.
 *
 * <pre>
 * java -cp &lt;it-hadoop classpath&gt; dev.levee.it.hadoop.MiniClusterMain \
 *     [--nodemanagers 2] [--datanodes 1] [--base-dir DIR] [--conf-dir DIR] [-D key=value ...]
 * </pre>
 */
public final class MiniClusterMain {

  private MiniClusterMain() {}

  public static void main(String[] args) throws Exception {
    MiniMapReduceCluster.Builder builder = MiniMapReduceCluster.builder();
    Path confDir = null;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--nodemanagers" -> builder.nodeManagers(parseInt(arg, value(args, ++i, arg)));
        case "--datanodes" -> builder.dataNodes(parseInt(arg, value(args, ++i, arg)));
        case "--nodemanager-memory-mb" ->
            builder.nodeManagerMemoryMb(parseInt(arg, value(args, ++i, arg)));
        case "--base-dir" -> builder.baseDir(Path.of(value(args, ++i, arg)));
        case "--conf-dir" -> confDir = Path.of(value(args, ++i, arg));
        case "-D" -> setProperty(builder, value(args, ++i, arg));
        default ->
            throw new IllegalArgumentException(
                "unknown argument '"
                    + arg
                    + "'; allowed: --nodemanagers N,"
                    + " --datanodes N, --nodemanager-memory-mb MB, --base-dir DIR, --conf-dir DIR, -D key=value");
      }
    }

    MiniMapReduceCluster cluster = builder.start().closeOnShutdown();
    Path written =
        cluster.writeClientConfDir(confDir != null ? confDir : cluster.workDir().resolve("conf"));
    System.out.println(
        "Levee mini cluster running. Client configuration (HADOOP_CONF_DIR): " + written);
    System.out.println(
        "Default FS: " + cluster.clientConf().get("fs.defaultFS") + "; stop with Ctrl-C.");
    // The shutdown hook stops the cluster; this thread only has to stay alive until then.
    new CountDownLatch(1).await();
  }

  private static void setProperty(MiniMapReduceCluster.Builder builder, String assignment) {
    int eq = assignment.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException("-D " + assignment + ": expected key=value");
    }
    builder.set(assignment.substring(0, eq), assignment.substring(eq + 1));
  }

  private static String value(String[] args, int index, String option) {
    if (index >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[index];
  }

  private static int parseInt(String option, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " " + value + ": expected a whole number", e);
    }
  }
}
