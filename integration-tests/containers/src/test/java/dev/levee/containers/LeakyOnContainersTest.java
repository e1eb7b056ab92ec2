package dev.levee.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The leaky buffer on a Spark standalone cluster of containers (a master, two workers, the driver
 * in the client container), deployed as the distribution's sample spark-defaults.conf tells an
 * operator: spark-submit reads it with {@code --properties-file}, so the executors fetch the leaky
 * jar that {@code spark.jars} names from the driver and create the leaky shuffle manager. The job
 * (integration-tests/containers-spark, {@code LeakyRun}) groups skewed pairs by key and joins them;
 * its output equals stock Spark's on the same cluster, its shuffle crosses the workers' containers,
 * and every reduce task of the grouping ran in an executor with the leaky manager.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LeakyOnContainersTest {
  static final String LEAKY_MANAGER = "org.apache.spark.shuffle.levee.LeakyShuffleManager";
  static final String STOCK_MANAGER = "org.apache.spark.shuffle.sort.SortShuffleManager";
  static final int RECORDS = 200_000;
  static final int WORKERS = 2;

  @RegisterExtension static final SharedContainerCluster CLUSTER = new SharedContainerCluster();

  private static SparkStandalone spark;

  @BeforeAll
  static void startSpark() {
    spark = SparkStandalone.start(CLUSTER.cluster(), WORKERS);
  }

  @AfterAll
  static void stopSpark() {
    if (spark != null) {
      spark.close();
    }
  }

  @Test
  void groupByKeyAndJoinOnTheLeakyBufferAcrossWorkersEqualStock() {
    SparkRun stock = run("stock", "");
    SparkRun leaky = run("leaky", SparkRun.LEAKY);
    System.err.printf("leaky buffer on standalone: stock %s%n  leaky %s%n", stock, leaky);

    for (String key : List.of("groups", "grouped_values", "group_digest", "join_pairs")) {
      assertEquals(stock.get(key), leaky.get(key), key + ": the leaky run equals stock's");
    }
    assertEquals(stock.get("join_digest"), leaky.get("join_digest"), "the leaky join's pairs");
    assertEquals(String.valueOf(RECORDS), leaky.get("grouped_values"), "every record grouped");

    for (SparkRun r : List.of(stock, leaky)) {
      assertEquals("sw1,sw2", r.get("executor_hosts"), "tasks ran on both workers: " + r);
      assertTrue(
          Long.parseLong(r.get("group_remote_bytes_read")) > 0,
          "the grouping's shuffle crossed containers: " + r);
    }
    assertTrue(
        leaky.reduceTasks().stream().allMatch(t -> t.contains("manager=" + LEAKY_MANAGER)),
        "every reduce task ran under the leaky shuffle manager: " + leaky.reduceTasks());
    assertTrue(
        leaky.reduceTasks().stream().anyMatch(t -> t.endsWith("table_loaded=true")),
        "the leaky table read the grouping: " + leaky.reduceTasks());
    assertTrue(
        stock.reduceTasks().stream()
            .allMatch(t -> t.contains("manager=" + STOCK_MANAGER) && t.endsWith("=false")),
        "stock ran no leaky code: " + stock.reduceTasks());
  }

  private static SparkRun run(String mode, String options) {
    SparkRun run = SparkRun.submit(spark, mode, options, RECORDS, WORKERS);
    assertTrue(run.succeeded(), mode + " run failed (exit " + run.exitCode() + "): " + run.tail());
    return run;
  }
}
