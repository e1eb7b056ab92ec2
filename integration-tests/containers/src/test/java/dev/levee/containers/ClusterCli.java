package dev.levee.containers;

import java.util.Map;

/**
 * {@code ./levee cluster up|down|status}: the container tier's cluster (three ZooKeeper servers, a
 * NameNode and a DataNode, a ResourceManager, three NodeManagers with SpongeFiles deployed from the
 * distribution and its sample configuration, a Spark standalone master and two workers, a client),
 * left running for a person to try Levee on; {@code demo} starts it and runs {@link ClusterDemo} on
 * it. Its configuration and files are under integration-tests/containers/target/cluster/try; {@code
 * down} removes every container and the network.
 */
public final class ClusterCli {
  static final String NAME = "try";

  private ClusterCli() {}

  public static void main(String[] args) throws Exception {
    String command = args.length == 1 ? args[0] : "";
    ContainerCluster cluster =
        new ContainerCluster(
            NAME, 3, new ContainerCluster.NodeSize("2g", "64m", "16m", 1280), Map.of());
    switch (command) {
      case "up" -> {
        cluster.start();
        SparkStandalone.start(cluster, 2);
        System.out.println(cluster.status());
        System.out.println(
            "\nA job, from the client container (docker exec -it "
                + cluster.container("client")
                + " bash):\n  "
                + ContainerCluster.clientJava(
                    "dev.levee.containers.jobs.SkewedShuffle", "/out/skewed 4 20000 1000")
                + "\n(SpongeFiles is on, as the sample configuration sets it; add"
                + " -D mapreduce.job.reduce.shuffle.consumer.plugin.class="
                + "org.apache.hadoop.mapreduce.task.reduce.Shuffle after SkewedShuffle for stock)"
                + "\nA Spark job on the standalone cluster, the leaky buffer on as the sample"
                + " spark-defaults.conf sets it (drop --properties-file for stock):\n  "
                + SparkStandalone.submitCommand(
                    "--properties-file " + ContainerCluster.LEVEE + "/conf/spark-defaults.conf",
                    "dev.levee.containers.spark.LeakyRun",
                    "leaky 200000 2")
                + "\nStop it: ./levee cluster down");
      }
      case "demo" -> {
        cluster.start();
        boolean ok = new ClusterDemo(cluster, SparkStandalone.start(cluster, 2)).run();
        System.out.println(
            "\nThe cluster stays up to look at (./levee cluster status); ./levee cluster down"
                + " removes it.");
        System.exit(ok ? 0 : 1);
      }
      case "status" -> System.out.println(cluster.status());
      case "down" -> {
        cluster.close();
        System.out.println("cluster " + NAME + " removed");
      }
      default -> {
        System.err.println("usage: ./levee cluster up|down|status|demo");
        System.exit(2);
      }
    }
  }
}
