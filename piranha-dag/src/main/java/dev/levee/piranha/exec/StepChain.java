package dev.levee.piranha.exec;

import dev.levee.piranha.dag.RecordAdapter;
import dev.levee.piranha.dag.Step;
import dev.levee.piranha.exchange.Run;
import dev.levee.piranha.exchange.RunMerger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.map.WrappedMapper;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.MapContextImpl;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Runs a stage's steps with the user's stock classes: the first step is driven by the stage's input
 * (the task's split, merged sorted runs, or forwarded records) through {@code Mapper.run} or {@code
 * Reducer.run}, exactly as MapReduce drives them; each later (fused) map step receives the previous
 * step's output one record at a time, the way Hadoop's {@code ChainReducer} feeds its mappers, but
 * in the same thread. The last step writes to the stage's output.
 */
public final class StepChain {
  private static final Method SETUP = mapperMethod("setup", Mapper.Context.class);
  private static final Method MAP =
      mapperMethod("map", Object.class, Object.class, Mapper.Context.class);
  private static final Method CLEANUP = mapperMethod("cleanup", Mapper.Context.class);

  /** The split a step's context reports (Pig's mappers need their own split type). */
  public interface SplitFactory {
    InputSplit splitFor(Configuration stepConf, InputSplit taskSplit) throws IOException;
  }

  /** Names a {@link SplitFactory} class in a step's settings. */
  public static final String SPLIT_FACTORY = "levee.piranha.internal.split-factory";

  private final List<Step> steps;
  private final List<Configuration> confs = new ArrayList<>();
  private final TaskAttemptID attempt;
  private final TaskReporter reporter;
  private final OutputCommitter committer;
  private final InputSplit split;
  private final RecordWriter<Object, Object> out;

  public StepChain(
      List<Step> steps,
      Configuration base,
      TaskAttemptContext task,
      OutputCommitter committer,
      InputSplit split,
      RecordWriter<Object, Object> out) {
    this.steps = steps;
    for (Step s : steps) {
      confs.add(s.apply(base));
    }
    this.attempt = task.getTaskAttemptID();
    this.reporter = new TaskReporter(task);
    this.committer = committer;
    this.split = split;
    this.out = out;
  }

  /** The settings of step {@code i} over the run's. */
  public Configuration conf(int i) {
    return confs.get(i);
  }

  /** Runs an initial stage: the first step maps the records {@code reader} reads. */
  public void runMap(RecordReader<Object, Object> reader) throws IOException, InterruptedException {
    List<Fused> fused = fusedSteps();
    RecordWriter<Object, Object> first = fused.isEmpty() ? out : fused.get(0).writer();
    Configuration c = confs.get(0);
    Mapper<Object, Object, Object, Object> mapper = newMapper(c);
    MapContextImpl<Object, Object, Object, Object> ctx =
        new MapContextImpl<>(c, attempt, reader, first, committer, reporter, splitFor(c));
    for (Fused f : fused) {
      f.setup();
    }
    mapper.run(new WrappedMapper<Object, Object, Object, Object>().getMapContext(ctx));
    for (Fused f : fused) {
      f.cleanup();
    }
  }

  /**
   * Runs a forward stage: the first step maps the records of {@code runs}, deserialized with the
   * classes the parents wrote and adapted as the step's input format would have read them.
   */
  public void runForward(List<Run> runs, Class<?> keyClass, Class<?> valueClass)
      throws IOException, InterruptedException {
    try (RunMerger merged = RunMerger.concatenated(runs)) {
      RecordReader<Object, Object> reader =
          new ForwardReader(
              merged, confs.get(0), keyClass, valueClass, RecordAdapter.of(confs.get(0)));
      runMap(reader);
    }
  }

  /** Runs a shuffled stage: the first step reduces the key groups of {@code input}. */
  @SuppressWarnings("unchecked")
  public void runReduce(RawKeyValueIterator input) throws IOException, InterruptedException {
    List<Fused> fused = fusedSteps();
    RecordWriter<Object, Object> first = fused.isEmpty() ? out : fused.get(0).writer();
    Configuration c = confs.get(0);
    JobContext job = new JobContextImpl(c, null);
    Reducer<Object, Object, Object, Object> reducer;
    try {
      reducer =
          (Reducer<Object, Object, Object, Object>)
              ReflectionUtils.newInstance(job.getReducerClass(), c);
    } catch (ClassNotFoundException e) {
      throw new IOException("reducer class of this stage is not on the task's classpath", e);
    }
    ReduceContextImpl<Object, Object, Object, Object> ctx =
        new ReduceContextImpl<>(
            c,
            attempt,
            input,
            reporter.getCounter(TaskCounter.REDUCE_INPUT_GROUPS),
            reporter.getCounter(TaskCounter.REDUCE_INPUT_RECORDS),
            first,
            committer,
            reporter,
            (org.apache.hadoop.io.RawComparator<Object>) job.getGroupingComparator(),
            (Class<Object>) job.getMapOutputKeyClass(),
            (Class<Object>) job.getMapOutputValueClass());
    for (Fused f : fused) {
      f.setup();
    }
    reducer.run(new WrappedReducer<Object, Object, Object, Object>().getReducerContext(ctx));
    for (Fused f : fused) {
      f.cleanup();
    }
  }

  private List<Fused> fusedSteps() throws IOException {
    List<Fused> fused = new ArrayList<>();
    RecordWriter<Object, Object> next = out;
    for (int i = steps.size() - 1; i >= 1; i--) {
      if (steps.get(i).kind() != Step.Kind.MAP) {
        throw new IOException("step " + i + " of a stage is a reduce; only maps can be fused");
      }
      Fused f = new Fused(confs.get(i), next);
      fused.add(0, f);
      next = f.writer();
    }
    return fused;
  }

  private InputSplit splitFor(Configuration c) throws IOException {
    Class<?> factory = c.getClass(SPLIT_FACTORY, null);
    if (factory == null) {
      return split;
    }
    return ((SplitFactory) ReflectionUtils.newInstance(factory, c)).splitFor(c, split);
  }

  @SuppressWarnings("unchecked")
  private static Mapper<Object, Object, Object, Object> newMapper(Configuration c)
      throws IOException {
    try {
      return (Mapper<Object, Object, Object, Object>)
          ReflectionUtils.newInstance(new JobContextImpl(c, null).getMapperClass(), c);
    } catch (ClassNotFoundException e) {
      throw new IOException("mapper class of this stage is not on the task's classpath", e);
    }
  }

  private static Method mapperMethod(String name, Class<?>... params) {
    try {
      Method m = Mapper.class.getDeclaredMethod(name, params);
      m.setAccessible(true);
      return m;
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static void call(Method m, Object target, Object... args)
      throws IOException, InterruptedException {
    try {
      m.invoke(target, args);
    } catch (InvocationTargetException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException io) {
        throw io;
      }
      if (c instanceof InterruptedException ie) {
        throw ie;
      }
      if (c instanceof RuntimeException re) {
        throw re;
      }
      if (c instanceof Error err) {
        throw err;
      }
      throw new IOException(c);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot call Mapper." + m.getName(), e);
    }
  }

  /** A map step fed one record at a time by the step before it. */
  private final class Fused {
    private final Mapper<Object, Object, Object, Object> mapper;
    private final Mapper<Object, Object, Object, Object>.Context ctx;
    private final CurrentRecord current = new CurrentRecord();
    private final RecordAdapter adapter;

    Fused(Configuration c, RecordWriter<Object, Object> next) throws IOException {
      this.mapper = newMapper(c);
      this.adapter = RecordAdapter.of(c);
      MapContextImpl<Object, Object, Object, Object> impl =
          new MapContextImpl<>(c, attempt, current, next, committer, reporter, splitFor(c));
      this.ctx = new WrappedMapper<Object, Object, Object, Object>().getMapContext(impl);
    }

    void setup() throws IOException, InterruptedException {
      call(SETUP, mapper, ctx);
    }

    void cleanup() throws IOException, InterruptedException {
      call(CLEANUP, mapper, ctx);
    }

    RecordWriter<Object, Object> writer() {
      return new RecordWriter<>() {
        @Override
        public void write(Object key, Object value) throws IOException, InterruptedException {
          try {
            adapter.adapt(
                key,
                value,
                (k, v) -> {
                  current.set(k, v);
                  try {
                    call(MAP, mapper, k, v, ctx);
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new UncheckedIOException(
                        new java.io.InterruptedIOException(e.getMessage()));
                  }
                });
          } catch (UncheckedIOException e) {
            throw e.getCause();
          }
        }

        @Override
        public void close(TaskAttemptContext context) {}
      };
    }
  }

  /** The record a fused mapper is being called with, for mappers that ask their context. */
  private static final class CurrentRecord extends RecordReader<Object, Object> {
    private Object key;
    private Object value;

    void set(Object k, Object v) {
      key = k;
      value = v;
    }

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) {}

    @Override
    public boolean nextKeyValue() {
      return false;
    }

    @Override
    public Object getCurrentKey() {
      return key;
    }

    @Override
    public Object getCurrentValue() {
      return value;
    }

    @Override
    public float getProgress() {
      return 0;
    }

    @Override
    public void close() {}
  }

  /** Forwarded records: deserialized as their parent wrote them, then adapted. */
  private static final class ForwardReader extends RecordReader<Object, Object> {
    private final RunMerger runs;
    private final Deserializer<Object> keys;
    private final Deserializer<Object> values;
    private final DataInputBuffer keyIn = new DataInputBuffer();
    private final DataInputBuffer valueIn = new DataInputBuffer();
    private final RecordAdapter adapter;
    private final ArrayDeque<Object[]> pending = new ArrayDeque<>();
    private Object key;
    private Object value;

    @SuppressWarnings("unchecked")
    ForwardReader(
        RunMerger runs,
        Configuration conf,
        Class<?> keyClass,
        Class<?> valueClass,
        RecordAdapter adapter)
        throws IOException {
      this.runs = runs;
      this.adapter = adapter;
      SerializationFactory f = new SerializationFactory(conf);
      keys = (Deserializer<Object>) f.getDeserializer(keyClass);
      values = (Deserializer<Object>) f.getDeserializer(valueClass);
      if (keys == null || values == null) {
        throw new IOException(
            "no deserializer in io.serializations for "
                + (keys == null ? keyClass.getName() : valueClass.getName()));
      }
      keys.open(keyIn);
      values.open(valueIn);
    }

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) {}

    @Override
    public boolean nextKeyValue() throws IOException {
      while (pending.isEmpty()) {
        if (!runs.next()) {
          return false;
        }
        Object k = null;
        if (!runs.nullKey()) {
          DataInputBuffer kb = runs.getKey();
          keyIn.reset(kb.getData(), kb.getPosition(), kb.getLength() - kb.getPosition());
          k = keys.deserialize(null);
        }
        DataInputBuffer vb = runs.getValue();
        valueIn.reset(vb.getData(), vb.getPosition(), vb.getLength() - vb.getPosition());
        Object v = values.deserialize(null);
        adapter.adapt(k, v, (a, b) -> pending.add(new Object[] {a, b}));
      }
      Object[] r = pending.poll();
      key = r[0];
      value = r[1];
      return true;
    }

    @Override
    public Object getCurrentKey() {
      return key;
    }

    @Override
    public Object getCurrentValue() {
      return value;
    }

    @Override
    public float getProgress() {
      return runs.getProgress().getProgress();
    }

    @Override
    public void close() {}
  }
}
