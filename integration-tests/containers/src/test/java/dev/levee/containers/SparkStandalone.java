package dev.levee.containers;

import java.util.ArrayList;
import java.util.List;

/**
 * A Spark standalone cluster on the container cluster's network: a master ({@code sm}) and workers
 * ({@code sw1}, ...), each its own container with a memory limit, started from their main classes
 * on {@code SPARK_HOME/jars} (Spark's jars from the Maven repository; no Spark tarball), and
 * spark-submit run from the client container in client mode, the driver there.
 */
final class SparkStandalone implements AutoCloseable {
  static final String MASTER = "sm";
  static final String MASTER_URL = "spark://" + MASTER + ":7077";

  /** Each worker offers one core and this much memory to executors. */
  static final String WORKER_MEMORY = "1g";

  /** A worker container's limit: its own JVM, one executor and headroom. */
  static final String WORKER_CONTAINER_LIMIT = "1600m";

  private static final String CLASSPATH = ContainerCluster.SPARK_HOME + "/jars/*";
  private static final String ENV =
      "SPARK_HOME=" + ContainerCluster.SPARK_HOME + " SPARK_SCALA_VERSION=2.13";

  private final ContainerCluster cluster;
  private final List<String> nodes = new ArrayList<>();

  private SparkStandalone(ContainerCluster cluster) {
    this.cluster = cluster;
  }

  /** Starts the master and {@code workers} workers; they register with the master on their own. */
  static SparkStandalone start(ContainerCluster cluster, int workers) {
    SparkStandalone spark = new SparkStandalone(cluster);
    try {
      spark.daemon(
          MASTER,
          List.of(),
          "org.apache.spark.deploy.master.Master --host "
              + MASTER
              + " --port 7077 --webui-port 8080");
      for (int i = 1; i <= workers; i++) {
        String worker = worker(i);
        spark.daemon(
            worker,
            List.of("--memory", WORKER_CONTAINER_LIMIT, "--memory-swap", WORKER_CONTAINER_LIMIT),
            // Work directories on the container's own disk: SPARK_HOME is mounted read-only.
            "org.apache.spark.deploy.worker.Worker --host "
                + worker
                + " --cores 1 --memory "
                + WORKER_MEMORY
                + " --work-dir /data/spark-work "
                + MASTER_URL);
      }
    } catch (RuntimeException e) {
      spark.close();
      throw e;
    }
    return spark;
  }

  static String worker(int i) {
    return "sw" + i;
  }

  private void daemon(String node, List<String> limits, String mainAndArgs) {
    cluster.daemon(
        node,
        limits,
        "mkdir -p /data/spark-work && "
            + ENV
            + " exec java -Xmx256m "
            + ContainerCluster.JVM_FLAGS
            + " -cp '"
            + CLASSPATH
            + "' "
            + mainAndArgs);
    nodes.add(node);
  }

  /**
   * Runs {@code spark-submit <options> --class <main> <jar> <args>} in the client container (the
   * driver there, client mode) and returns what it printed.
   */
  Docker.Result submit(String options, String main, String args, long timeoutSeconds) {
    return cluster.tryExec(timeoutSeconds, "client", submitCommand(options, main, args));
  }

  /**
   * The client container's spark-submit command line (Spark's launcher scripts are not here); the
   * driver's heap is above the 450 MiB Spark requires of it.
   */
  static String submitCommand(String options, String main, String args) {
    return ENV
        + " java -Xmx768m "
        + ContainerCluster.JVM_FLAGS
        + " "
        + System.getProperty("levee.containers.java-opens", "")
        + " -cp '"
        + CLASSPATH
        + "' org.apache.spark.deploy.SparkSubmit --master "
        + MASTER_URL
        + " --deploy-mode client "
        + options
        + " --class "
        + main
        + " "
        + ContainerCluster.SPARK_JOB_JAR
        + " "
        + args;
  }

  /** Removes the master and the workers (their logs saved), freeing their memory for others. */
  @Override
  public void close() {
    nodes.forEach(cluster::remove);
    nodes.clear();
  }
}
