package dev.levee.themis.plan;

import dev.levee.themis.ThemisConf;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapRunnable;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MapContext;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.map.WrappedMapper;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.MapContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Phase 0's sampling step: runs the job's own mapper over a prefix of some of its input splits, in
 * this process, and keeps what the mapper emits. The paper samples the map output, not the input,
 * because the intermediate data's distribution comes from map(); so does this.
 */
public final class MapOutputSampler {
  private MapOutputSampler() {}

  private static final long SEED = 0x7E3155L;

  public static MapOutputSample sample(JobConf job) throws IOException, InterruptedException {
    int splits = ThemisConf.PLAN_SAMPLE_SPLITS.from(ThemisConf.source(job));
    long prefix = ThemisConf.PLAN_SAMPLE_BYTES.from(ThemisConf.source(job));
    int capacity = ThemisConf.PLAN_SAMPLE_RECORDS.from(ThemisConf.source(job));
    Reservoir<SampledRecord> reservoir = new Reservoir<>(capacity, SEED);
    try {
      return job.getUseNewMapper()
          ? sampleNewApi(job, splits, prefix, reservoir)
          : sampleOldApi(job, splits, prefix, reservoir);
    } catch (ClassNotFoundException e) {
      throw new IOException("a class of the job cannot be loaded in this client: " + e, e);
    }
  }

  /** Indexes of {@code want} splits spread evenly over {@code total}. */
  static List<Integer> spread(int total, int want) {
    List<Integer> picked = new ArrayList<>();
    int n = Math.min(total, want);
    for (int i = 0; i < n; i++) {
      picked.add((int) ((long) i * total / n));
    }
    return picked;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static MapOutputSample sampleNewApi(
      JobConf job, int wanted, long prefix, Reservoir<SampledRecord> reservoir)
      throws IOException, InterruptedException, ClassNotFoundException {
    JobID jobId = new JobID("themis-phase0", 0);
    JobContextImpl context = new JobContextImpl(job, jobId);
    InputFormat inputFormat = ReflectionUtils.newInstance(context.getInputFormatClass(), job);
    List<InputSplit> splits = inputFormat.getSplits(context);
    long totalInput = 0;
    long largest = 0;
    for (InputSplit s : splits) {
      totalInput += s.getLength();
      largest = Math.max(largest, s.getLength());
    }
    Partitioner partitioner = ReflectionUtils.newInstance(context.getPartitionerClass(), job);
    OutputCapture capture =
        new OutputCapture(job, OutputCapture.of(partitioner, job.getNumReduceTasks()), reservoir);
    PrefixCombiner combiner = PrefixCombiner.forJob(job, capture);
    long inputBytes = 0;
    List<Integer> picked = spread(splits.size(), wanted);
    for (int index : picked) {
      InputSplit split = splits.get(index);
      TaskAttemptID attempt = new TaskAttemptID(jobId.getJtIdentifier(), 0, TaskType.MAP, index, 0);
      TaskAttemptContext taskContext = new TaskAttemptContextImpl(job, attempt);
      RecordReader reader = inputFormat.createRecordReader(split, taskContext);
      reader.initialize(split, taskContext);
      PrefixReader limited = new PrefixReader(reader, split.getLength(), prefix);
      if (combiner != null) {
        combiner.beginSplit(limited::bytesRead, limited::stop);
      }
      RecordWriter writer =
          new RecordWriter() {
            @Override
            public void write(Object key, Object value) throws IOException {
              if (combiner != null) {
                combiner.collect(key, value);
              } else {
                capture.write(key, value);
              }
            }

            @Override
            public void close(TaskAttemptContext c) {}
          };
      MapContext mapContext =
          new MapContextImpl(
              job,
              attempt,
              limited,
              writer,
              null,
              new TaskAttemptContextImpl.DummyReporter(),
              split);
      Mapper mapper = ReflectionUtils.newInstance(context.getMapperClass(), job);
      try {
        mapper.run(new WrappedMapper().getMapContext(mapContext));
      } finally {
        reader.close();
      }
      if (combiner != null) {
        combiner.endSplit(split.getLength(), limited.bytesRead());
      }
      inputBytes += limited.bytesRead();
    }
    return sample(
        combiner,
        capture,
        reservoir,
        inputBytes,
        picked.size(),
        splits.size(),
        totalInput,
        largest);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static MapOutputSample sampleOldApi(
      JobConf job, int wanted, long prefix, Reservoir<SampledRecord> reservoir) throws IOException {
    org.apache.hadoop.mapred.InputFormat inputFormat = job.getInputFormat();
    org.apache.hadoop.mapred.InputSplit[] splits =
        inputFormat.getSplits(job, Math.max(1, job.getNumMapTasks()));
    long totalInput = 0;
    long largest = 0;
    for (org.apache.hadoop.mapred.InputSplit s : splits) {
      totalInput += s.getLength();
      largest = Math.max(largest, s.getLength());
    }
    org.apache.hadoop.mapred.Partitioner partitioner =
        ReflectionUtils.newInstance(job.getPartitionerClass(), job);
    OutputCapture capture =
        new OutputCapture(job, OutputCapture.of(partitioner, job.getNumReduceTasks()), reservoir);
    PrefixCombiner combiner = PrefixCombiner.forJob(job, capture);
    OutputCollector collector = combiner != null ? combiner::collect : capture::write;
    long inputBytes = 0;
    List<Integer> picked = spread(splits.length, wanted);
    for (int index : picked) {
      org.apache.hadoop.mapred.InputSplit split = splits[index];
      org.apache.hadoop.mapred.RecordReader reader =
          inputFormat.getRecordReader(split, job, Reporter.NULL);
      PrefixReader.Old limited = new PrefixReader.Old(reader, split.getLength(), prefix);
      if (combiner != null) {
        combiner.beginSplit(limited::bytesRead, limited::stop);
      }
      MapRunnable runner = ReflectionUtils.newInstance(job.getMapRunnerClass(), job);
      try {
        runner.run(limited, collector, Reporter.NULL);
      } finally {
        reader.close();
      }
      if (combiner != null) {
        try {
          combiner.endSplit(split.getLength(), limited.bytesRead());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while combining a sampled prefix", e);
        }
      }
      inputBytes += limited.bytesRead();
    }
    return sample(
        combiner,
        capture,
        reservoir,
        inputBytes,
        picked.size(),
        splits.length,
        totalInput,
        largest);
  }

  /**
   * Without a combiner the captured records are the map output and reach the reducers as they are;
   * with one, the captured records are the combiner's and the map output is the combiner's input.
   */
  private static MapOutputSample sample(
      PrefixCombiner<?, ?> combiner,
      OutputCapture<?, ?> capture,
      Reservoir<SampledRecord> reservoir,
      long inputBytes,
      int sampled,
      int total,
      long totalInput,
      long largest) {
    if (combiner == null) {
      return new MapOutputSample(
          inputBytes,
          capture.records(),
          capture.bytes(),
          reservoir.items(),
          sampled,
          total,
          totalInput,
          largest);
    }
    return new MapOutputSample(
        inputBytes,
        combiner.rawRecords(),
        combiner.rawBytes(),
        reservoir.items(),
        sampled,
        total,
        totalInput,
        largest,
        combiner.recordShare(),
        combiner.byteShare());
  }
}
