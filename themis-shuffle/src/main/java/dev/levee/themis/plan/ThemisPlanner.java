package dev.levee.themis.plan;

import dev.levee.config.ConfigSource;
import dev.levee.themis.ThemisConf;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Themis's phase 0 as an API: sample a job's map output, plan its partitions, and apply the plan to
 * the job before it is submitted.
 *
 * <pre>
 * Job job = ...;                                       // the job as the user built it
 * PlanReport report = ThemisPlanner.apply(job, new Path("/tmp/my-job.themis-plan"));
 * System.out.print(report.describe());
 * job.waitForCompletion(true);
 * </pre>
 *
 * With {@code mapreduce.framework.name=levee-themis} the same happens inside job submission, with
 * no code change ({@link ThemisClientProtocolProvider}).
 */
public final class ThemisPlanner {
  private static final Logger LOG = LoggerFactory.getLogger(ThemisPlanner.class);

  private static final List<String> HASH_PARTITIONERS =
      List.of(
          "org.apache.hadoop.mapreduce.lib.partition.HashPartitioner",
          "org.apache.hadoop.mapred.lib.HashPartitioner");
  private static final List<String> RANGE_PARTITIONERS =
      List.of(
          "org.apache.hadoop.mapreduce.lib.partition.TotalOrderPartitioner",
          "org.apache.hadoop.mapred.lib.TotalOrderPartitioner");

  /** What a task's JVM gets of its -Xmx as usable heap (Runtime.maxMemory()). */
  private static final double USABLE_HEAP = 0.95;

  private ThemisPlanner() {}

  /** Samples and plans; changes nothing. */
  public static PlanReport plan(Configuration conf) throws IOException, InterruptedException {
    JobConf job = new JobConf(conf);
    settleApi(job);
    ConfigSource source = ThemisConf.validate(job, LOG);
    if (job.getNumReduceTasks() == 0) {
      throw new IllegalArgumentException("a map-only job has no partitions to plan");
    }
    MapOutputSample sample = MapOutputSampler.sample(job);
    String partitioner = partitionerName(job);
    PartitionPlanner.Job facts =
        new PartitionPlanner.Job(
            policy(job, source, partitioner),
            partitioner,
            job.getNumReduceTasks(),
            reducerBudget(job, source),
            ThemisConf.PLAN_PARTITION_FILL.from(source),
            ThemisConf.PLAN_MAX_REDUCERS.from(source),
            mapBudget(job, source),
            ThemisConf.PLAN_SPLIT_SIZE.from(source) && splitSizable(job),
            job.getOutputKeyComparator(),
            keyDisplay(job));
    return PartitionPlanner.plan(sample, facts);
  }

  /** Plans {@code job} and applies the plan to it, writing the plan file at {@code planFile}. */
  public static PlanReport apply(Job job, Path planFile) throws IOException, InterruptedException {
    JobConf conf = new JobConf(job.getConfiguration());
    PlanReport report = plan(conf);
    applyTo(job.getConfiguration(), report, planFile);
    return report;
  }

  /** Writes the plan (when there is one) and sets the keys that make the job use it. */
  public static void applyTo(Configuration conf, PlanReport report, Path planFile)
      throws IOException {
    JobConf job = new JobConf(conf);
    settleApi(job);
    if (report.plan() != null) {
      FileSystem fs = planFile.getFileSystem(conf);
      try (OutputStream out = fs.create(planFile, true)) {
        report.plan().write(out);
      }
      conf.setInt(MRJobConfig.NUM_REDUCES, report.reducers());
      if (job.getUseNewMapper()) {
        conf.setClass(
            MRJobConfig.PARTITIONER_CLASS_ATTR, ThemisPartitioner.class, Partitioner.class);
      } else {
        conf.setClass(
            "mapred.partitioner.class",
            ThemisPartitioner.class,
            org.apache.hadoop.mapred.Partitioner.class);
      }
      conf.set(ThemisConf.PLAN_PATH.name(), fs.makeQualified(planFile).toString());
    }
    if (report.splitMaxSize() > 0) {
      if (job.getUseNewMapper()) {
        conf.setLong(FileInputFormat.SPLIT_MAXSIZE, report.splitMaxSize());
      } else {
        long total = report.sample().totalInputBytes();
        conf.setInt(
            MRJobConfig.NUM_MAPS,
            (int) Math.max(1, (total + report.splitMaxSize() - 1) / report.splitMaxSize()));
      }
    }
    conf.set(
        ThemisConf.PLAN_HEAVY_KEYS.name(),
        report.heavyKeys().stream()
            .map(k -> k.display() + "=" + k.estimatedBytes())
            .collect(Collectors.joining(", ")));
  }

  /** The keys and values a user would pass with -D to run the job as planned. */
  public static List<String> flags(PlanReport report, Path planFile, boolean newApi) {
    List<String> flags = new java.util.ArrayList<>();
    if (report.plan() != null) {
      flags.add(MRJobConfig.NUM_REDUCES + "=" + report.reducers());
      flags.add(
          (newApi ? MRJobConfig.PARTITIONER_CLASS_ATTR : "mapred.partitioner.class")
              + "="
              + ThemisPartitioner.class.getName());
      flags.add(ThemisConf.PLAN_PATH.name() + "=" + planFile);
    }
    if (report.splitMaxSize() > 0) {
      flags.add(FileInputFormat.SPLIT_MAXSIZE + "=" + report.splitMaxSize());
    }
    return flags;
  }

  /**
   * Which MapReduce API the job uses, decided as Job.submit() decides it: a job not yet submitted
   * has not recorded it.
   */
  static void settleApi(JobConf job) {
    job.setBooleanIfUnset("mapred.mapper.new-api", job.get("mapred.mapper.class") == null);
    job.setBooleanIfUnset("mapred.reducer.new-api", job.get("mapred.reducer.class") == null);
  }

  static String partitionerName(JobConf job) {
    if (job.getUseNewMapper()) {
      return job.get(
          MRJobConfig.PARTITIONER_CLASS_ATTR,
          "org.apache.hadoop.mapreduce.lib.partition.HashPartitioner");
    }
    return job.get("mapred.partitioner.class", "org.apache.hadoop.mapred.lib.HashPartitioner");
  }

  static PlanPolicy policy(JobConf job, ConfigSource source, String partitioner) {
    PlanPolicy asked = ThemisConf.PLAN_POLICY.from(source);
    boolean hash = HASH_PARTITIONERS.contains(partitioner);
    boolean range =
        RANGE_PARTITIONERS.contains(partitioner)
            || Arrays.stream(ThemisConf.PLAN_RANGE_PARTITIONERS.from(source).split(","))
                .map(String::trim)
                .anyMatch(partitioner::equals);
    return switch (asked) {
      case AUTO -> hash ? PlanPolicy.HASH : range ? PlanPolicy.RANGE : PlanPolicy.KEEP;
      case HASH -> {
        if (!hash) {
          throw new dev.levee.config.ConfigException(
              ThemisConf.PLAN_POLICY.name(),
              "hash",
              "auto or keep: the job's partitioner "
                  + partitioner
                  + " is not a HashPartitioner,"
                  + " and replacing it could break what it guarantees");
        }
        yield PlanPolicy.HASH;
      }
      case RANGE -> {
        if (!range && !hash) {
          throw new dev.levee.config.ConfigException(
              ThemisConf.PLAN_POLICY.name(),
              "range",
              "auto or keep: the job's partitioner "
                  + partitioner
                  + " is neither a hash nor a"
                  + " total-order partitioner");
        }
        yield PlanPolicy.RANGE;
      }
      case KEEP -> PlanPolicy.KEEP;
    };
  }

  static long heapBytes(JobConf job, TaskType type) {
    int mb = JobConf.parseMaximumHeapSizeMB(job.getTaskJavaOpts(type));
    return (long) (Math.max(mb, 1) * (double) (1L << 20) * USABLE_HEAP);
  }

  static long reducerBudget(JobConf job, ConfigSource source) {
    long size = ThemisConf.REDUCE_MEMORY_SIZE.from(source);
    return size > 0
        ? size
        : (long) (heapBytes(job, TaskType.REDUCE) * ThemisConf.REDUCE_MEMORY_FRACTION.from(source));
  }

  static long mapBudget(JobConf job, ConfigSource source) {
    long size = ThemisConf.MAP_BUFFER_SIZE.from(source);
    return size > 0
        ? size
        : (long) (heapBytes(job, TaskType.MAP) * ThemisConf.MAP_BUFFER_FRACTION.from(source));
  }

  static boolean splitSizable(JobConf job) {
    try {
      if (job.getUseNewMapper()) {
        return FileInputFormat.class.isAssignableFrom(
            new org.apache.hadoop.mapreduce.task.JobContextImpl(job, null).getInputFormatClass());
      }
      return org.apache.hadoop.mapred.FileInputFormat.class.isAssignableFrom(
          job.getInputFormat().getClass());
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /** Turns a serialized key into the text a person recognises (shortened), or hex. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static java.util.function.Function<byte[], String> keyDisplay(JobConf job) {
    return bytes -> {
      try {
        Deserializer d = new SerializationFactory(job).getDeserializer(job.getMapOutputKeyClass());
        DataInputBuffer in = new DataInputBuffer();
        in.reset(bytes, bytes.length);
        d.open(in);
        String s = String.valueOf(d.deserialize(null));
        d.close();
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
      } catch (IOException | RuntimeException e) {
        return "0x"
            + HexFormat.of()
                .formatHex(bytes, 0, Math.min(bytes.length, 32))
                .toUpperCase(Locale.ROOT);
      }
    };
  }
}
