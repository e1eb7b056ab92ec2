package dev.levee.themis;

import dev.levee.config.ConfigKey;
import dev.levee.config.ConfigRegistry;
import dev.levee.config.ConfigSource;
import dev.levee.config.ValueTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;

/**
 * Every {@code levee.themis.*} setting: name, type, default, allowed values and meaning. Values are
 * read only through these keys; the README's table is generated from this registry.
 */
public final class ThemisConf {
  private ThemisConf() {}

  private static final ConfigRegistry.Builder B = ConfigRegistry.builder("themis", "levee.themis.");

  // Map side --------------------------------------------------------------------------------

  public static final ConfigKey<Double> MAP_BUFFER_FRACTION =
      B.key("levee.themis.map.buffer.fraction", ValueTypes.decimal(0, false, 0.9, true))
          .defaultValue("0.5")
          .doc(
              "Share of the map task's heap (-Xmx) that holds its output records and their"
                  + " 20-byte index until the map ends and writes them once. Ignored when"
                  + " levee.themis.map.buffer.size is set.")
          .since("0.1.0")
          .build();

  public static final ConfigKey<Long> MAP_BUFFER_SIZE =
      B.key("levee.themis.map.buffer.size", ValueTypes.bytes(0, 1L << 40))
          .defaultValue("0")
          .defaultDescription("0: levee.themis.map.buffer.fraction of the heap")
          .doc(
              "Bytes a map task buffers its output in (records plus 20 bytes of index per"
                  + " record). Output beyond it overflows (levee.themis.map.overflow).")
          .since("0.1.0")
          .build();

  public static final ConfigKey<Integer> MAP_WRITE_BUFFER =
      B.key("levee.themis.map.write.buffer", ValueTypes.intBytes(4 << 10, 256 << 20))
          .defaultValue("8m")
          .doc(
              "Size of each write of file.out: the map output reaches the disk in writes of"
                  + " this size whatever the partition sizes (the paper's chains are 4.5-14 MB).")
          .since("0.1.0")
          .build();

  public static final ConfigKey<OutputOrder> MAP_OUTPUT_ORDER =
      B.key("levee.themis.map.output.order", ValueTypes.enumOf(OutputOrder.class))
          .defaultValue("auto")
          .doc(
              "unsorted: each partition as collected (needs"
                  + " mapreduce.job.reduce.shuffle.consumer.plugin.class ="
                  + " dev.levee.themis.reduce.ThemisShuffle, which sorts it once); sorted: each"
                  + " partition sorted in memory, still written once, readable by any reduce"
                  + " side; auto: unsorted when the reduce side is Themis and there is no"
                  + " combiner to run, sorted otherwise.")
          .since("0.1.0")
          .build();

  public static final ConfigKey<Boolean> MAP_COMBINE =
      B.key("levee.themis.map.combine", ValueTypes.bool())
          .defaultValue("true")
          .doc(
              "Run the job's combiner over each partition when the map writes it (the partition"
                  + " is then sorted). false skips the combiner, which MapReduce allows: the paper"
                  + " found combiners often made its maps CPU-bound.")
          .since("0.1.0")
          .build();

  public static final ConfigKey<Overflow> MAP_OVERFLOW =
      B.key("levee.themis.map.overflow", ValueTypes.enumOf(Overflow.class))
          .defaultValue("spill")
          .doc(
              "When a map's output outgrows its buffer: spill writes the buffer as a run and"
                  + " copies the runs into file.out at the end (one extra write and read of those"
                  + " bytes, counted in map.overflow.*); fail stops the task.")
          .since("0.1.0")
          .build();

  // Reduce side -----------------------------------------------------------------------------

  public static final ConfigKey<Double> REDUCE_MEMORY_FRACTION =
      B.key("levee.themis.reduce.memory.fraction", ValueTypes.decimal(0, false, 0.95, true))
          .defaultValue("0.6")
          .doc(
              "Share of the reduce task's heap that holds its whole partition (fetched bytes"
                  + " plus 8 bytes per record) while it is sorted and reduced. Ignored when"
                  + " levee.themis.reduce.memory.size is set.")
          .since("0.1.0")
          .build();

  public static final ConfigKey<Long> REDUCE_MEMORY_SIZE =
      B.key("levee.themis.reduce.memory.size", ValueTypes.bytes(0, 1L << 50))
          .defaultValue("0")
          .defaultDescription("0: levee.themis.reduce.memory.fraction of the heap")
          .doc("Bytes a reduce task may hold its partition in.")
          .since("0.1.0")
          .build();

  public static final ConfigKey<Overflow> REDUCE_OVERFLOW =
      B.key("levee.themis.reduce.overflow", ValueTypes.enumOf(Overflow.class))
          .defaultValue("spill")
          .doc(
              "When a partition outgrows the reducer's memory: spill sorts what is held into a"
                  + " run on local disk and merges the runs once before reduce() (one extra write"
                  + " and read of those bytes, for that reducer only, counted in"
                  + " reduce.overflow.*); fail stops the task with a message naming the sizes, as"
                  + " the paper would restart the job.")
          .since("0.1.0")
          .build();

  public static final ConfigKey<Integer> REDUCE_CHUNK_SIZE =
      B.key("levee.themis.reduce.chunk.size", ValueTypes.intBytes(4 << 10, 1 << 30))
          .defaultValue("64m")
          .doc(
              "Largest array a fetched map output is held in; a bigger one is split at record"
                  + " boundaries. Keeps single allocations small next to a large heap.")
          .since("0.1.0")
          .build();

  // Phase 0: sampling and partition sizing -------------------------------------------------

  public static final ConfigKey<dev.levee.themis.plan.PlanPolicy> PLAN_POLICY =
      B.key("levee.themis.plan.policy", ValueTypes.enumOf(dev.levee.themis.plan.PlanPolicy.class))
          .defaultValue("auto")
          .doc(
              "How phase 0 partitions: hash (byte-weighted ranges of key.hashCode(), so equal keys"
                  + " still meet), range (byte-weighted ranges of keys in the job's sort order, for"
                  + " total order), keep (the job's partitioner and reducer count, sizes only"
                  + " predicted); auto: hash for HashPartitioner, range for TotalOrderPartitioner"
                  + " and the classes in levee.themis.plan.range.partitioners, keep otherwise.")
          .since("0.1.0")
          .build();

  public static final ConfigKey<String> PLAN_RANGE_PARTITIONERS =
      B.key("levee.themis.plan.range.partitioners", ValueTypes.text())
          .defaultValue("org.apache.hadoop.examples.terasort.TeraSort$TotalOrderPartitioner")
          .doc(
              "Comma-separated partitioner classes that produce a total order like Hadoop's"
                  + " TotalOrderPartitioner, which phase 0 may replace with byte-weighted ranges.")
          .since("0.1.0")
          .build();

  public static final ConfigKey<Integer> PLAN_SAMPLE_SPLITS =
      B.key("levee.themis.plan.sample.splits", ValueTypes.ints(1, 100_000))
          .defaultValue("10")
          .doc("Input splits phase 0 runs the job's mapper over (spread over all splits).")
          .since("0.1.0")
          .build();

  public static final ConfigKey<Long> PLAN_SAMPLE_BYTES =
      B.key("levee.themis.plan.sample.bytes", ValueTypes.bytes(1 << 10, 1L << 40))
          .defaultValue("8m")
          .doc("Input bytes read from the start of each sampled split (its prefix, as the paper).")
          .since("0.1.0")
          .build();

  public static final ConfigKey<Integer> PLAN_SAMPLE_RECORDS =
      B.key("levee.themis.plan.sample.records", ValueTypes.ints(100, 50_000_000))
          .defaultValue("200000")
          .doc(
              "Map output records kept (a uniform reservoir over everything sampled) to place the"
                  + " cuts and find the heavy keys.")
          .since("0.1.0")
          .build();

  public static final ConfigKey<Double> PLAN_PARTITION_FILL =
      B.key("levee.themis.plan.partition.fill", ValueTypes.fraction())
          .defaultValue("0.5")
          .doc(
              "Share of a reducer's Themis memory a planned partition fills; the rest absorbs"
                  + " sampling error and skew before a partition overflows.")
          .since("0.1.0")
          .build();

  public static final ConfigKey<Integer> PLAN_MAX_REDUCERS =
      B.key("levee.themis.plan.reducers.max", ValueTypes.ints(1, 1_000_000))
          .defaultValue("10000")
          .doc("The most reducers phase 0 may choose.")
          .since("0.1.0")
          .build();

  public static final ConfigKey<Boolean> PLAN_SPLIT_SIZE =
      B.key("levee.themis.plan.split.size", ValueTypes.bool())
          .defaultValue("true")
          .doc(
              "Let phase 0 lower mapreduce.input.fileinputformat.split.maxsize so each map's"
                  + " output fits its Themis buffer (its splits are then computed again).")
          .since("0.1.0")
          .build();

  public static final ConfigKey<Boolean> PLAN_REQUIRED =
      B.key("levee.themis.plan.required", ValueTypes.bool())
          .defaultValue("false")
          .doc(
              "When phase 0 cannot sample (a mapper that needs its task's distributed cache, an"
                  + " input format that cannot be read from the client): false submits the job"
                  + " unplanned with a warning, true fails the submission.")
          .since("0.1.0")
          .build();

  public static final ConfigKey<String> PLAN_PATH =
      B.key("levee.themis.plan.path", ValueTypes.text())
          .defaultValue("")
          .defaultDescription("(set by phase 0)")
          .doc(
              "The partition plan file Themis's partitioners read (boundaries, reducer count);"
                  + " phase 0 writes it and sets this key.")
          .since("0.1.0")
          .build();

  public static final ConfigKey<String> PLAN_HEAVY_KEYS =
      B.key("levee.themis.plan.heavy.keys", ValueTypes.text())
          .defaultValue("")
          .defaultDescription("(set by phase 0)")
          .doc(
              "The keys phase 0 found too heavy for one planned partition, with their estimated"
                  + " bytes; informational, set by phase 0.")
          .since("0.1.0")
          .build();

  public static final ConfigRegistry REGISTRY = B.build();

  /** A Hadoop configuration as the registry reads it. */
  public static ConfigSource source(Configuration conf) {
    return ConfigSource.of(
        conf::get,
        () -> {
          List<String> names = new ArrayList<>();
          for (String rest : conf.getPropsWithPrefix(REGISTRY.prefix()).keySet()) {
            names.add(REGISTRY.prefix() + rest);
          }
          return names;
        });
  }

  /**
   * Parses every {@code levee.themis.*} value {@code conf} sets, so a bad one fails now naming the
   * key, the value and what is allowed; logs each unknown key, once per JVM, with the nearest known
   * one.
   */
  public static ConfigSource validate(Configuration conf, Logger log) {
    ConfigSource source = source(conf);
    REGISTRY.validate(source, log::warn);
    return source;
  }
}
