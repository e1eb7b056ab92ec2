package dev.levee.piranha.dag;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.StringUtils;

/**
 * A Piranha job: a DAG of stages that runs as one map-only MapReduce job (paper: Elmeleegy,
 * "Piranha: Optimizing Short Jobs in Hadoop", PVLDB 6(11), 2013). Stages are declared in
 * topological order, each naming its parents; the one stage without children is the terminal stage
 * and writes the output through its output format.
 *
 * <pre>{@code
 * PiranhaDag dag = PiranhaDag.builder("top-words")
 *     .initial("scan").inputFormat(TextInputFormat.class).inputPaths(in)
 *         .mapper(TokenMapper.class).mapOutput(Text.class, LongWritable.class)
 *     .shuffle("count", 4).from("scan")
 *         .reducer(LongSumReducer.class).combiner(LongSumReducer.class).output(Text.class, LongWritable.class)
 *     .forward("swap").from("count").mapper(SwapMapper.class).mapOutput(LongWritable.class, Text.class)
 *     .shuffle("top", 1).from("swap").reducer(TopReducer.class)
 *         .sortComparator(LongWritable.DecreasingComparator.class)
 *         .outputFormat(TextOutputFormat.class, out)
 *     .build();
 * }</pre>
 *
 * Every stage takes stock Hadoop classes; {@link StageBuilder#job()} exposes the stage's settings
 * as a {@link Job} for anything the builder does not name. {@link MrChain} turns configured jobs
 * into a DAG.
 */
public final class PiranhaDag {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_]{1,24}");

  private final String name;
  private final List<Stage> stages;
  private final Map<String, String> conf;

  public PiranhaDag(String name, List<Stage> stages, Map<String, String> conf) {
    this.name = Objects.requireNonNull(name, "name");
    this.stages = List.copyOf(stages);
    this.conf = Collections.unmodifiableMap(new LinkedHashMap<>(conf));
    validate();
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  public String name() {
    return name;
  }

  /** In topological order: every stage after its parents. */
  public List<Stage> stages() {
    return stages;
  }

  /** Settings for every stage, over the run's configuration and under each step's own. */
  public Map<String, String> conf() {
    return conf;
  }

  public Stage stage(String stageName) {
    for (Stage s : stages) {
      if (s.name().equals(stageName)) {
        return s;
      }
    }
    throw new DagException("DAG " + name + " has no stage '" + stageName + "'");
  }

  public int indexOf(String stageName) {
    for (int i = 0; i < stages.size(); i++) {
      if (stages.get(i).name().equals(stageName)) {
        return i;
      }
    }
    throw new DagException("DAG " + name + " has no stage '" + stageName + "'");
  }

  public List<Stage> children(String stageName) {
    List<Stage> c = new ArrayList<>();
    for (Stage s : stages) {
      if (s.parents().contains(stageName)) {
        c.add(s);
      }
    }
    return c;
  }

  public Stage terminal() {
    for (Stage s : stages) {
      if (children(s.name()).isEmpty()) {
        return s;
      }
    }
    throw new AssertionError("validated DAG without a terminal stage");
  }

  public PiranhaDag withStages(List<Stage> newStages) {
    return new PiranhaDag(name, newStages, conf);
  }

  /** Whether the DAG is a chain: one initial stage, every other stage with one parent and child. */
  public boolean isChain() {
    for (int i = 0; i < stages.size(); i++) {
      Stage s = stages.get(i);
      if (i == 0 ? !s.initial() : !s.parents().equals(List.of(stages.get(i - 1).name()))) {
        return false;
      }
    }
    return true;
  }

  /** The run's configuration with the DAG-wide settings on top. */
  public Configuration apply(Configuration base) {
    Configuration c = new Configuration(base);
    conf.forEach((k, v) -> c.set(k, v, "piranha dag"));
    return c;
  }

  private void validate() {
    if (!name.matches("[A-Za-z0-9_.-]{1,80}")) {
      throw new DagException(
          "DAG name '" + name + "' must be 1-80 letters, digits, '.', '-' or '_'");
    }
    if (stages.isEmpty()) {
      throw new DagException("DAG " + name + " has no stages");
    }
    Map<String, Stage> seen = new LinkedHashMap<>();
    for (Stage s : stages) {
      String where = "stage '" + s.name() + "' of DAG " + name;
      if (!NAME.matcher(s.name()).matches()) {
        throw new DagException(
            where + ": a stage name is 1-24 letters, digits or '_' (it names counters and znodes)");
      }
      if (seen.containsKey(s.name())) {
        throw new DagException(where + " is declared twice");
      }
      if (s.steps().isEmpty()) {
        throw new DagException(where + " has no mapper or reducer");
      }
      for (String p : s.parents()) {
        if (!seen.containsKey(p)) {
          throw new DagException(
              where
                  + " names parent '"
                  + p
                  + "', which is not declared before it (stages are declared in topological"
                  + " order, so a parent comes first and there are no cycles)");
        }
      }
      if (s.parents().size() != s.parents().stream().distinct().count()) {
        throw new DagException(where + " names a parent twice: " + s.parents());
      }
      if (s.initial()) {
        if (s.first().kind() != Step.Kind.MAP) {
          throw new DagException(
              where + " has no parents, so it reads its input format and must start with a mapper");
        }
        if (!s.first().conf().containsKey(INPUT_FORMAT)) {
          throw new DagException(
              where + " has no parents and no input format: call inputFormat(...) or from(...)");
        }
        if (s.parallelism() != Stage.SPLITS && s.parallelism() < 1) {
          throw new DagException(where + ": parallelism " + s.parallelism() + " must be >= 1");
        }
      } else if (s.parallelism() < 1
          && !(s.parallelism() == Stage.SAME_AS_PARENT && s.first().kind() == Step.Kind.MAP)) {
        throw new DagException(
            where
                + ": parallelism "
                + s.parallelism()
                + " must be at least 1 (tasks of the stage)");
      }
      seen.put(s.name(), s);
    }
    List<Stage> terminals = new ArrayList<>();
    for (Stage s : stages) {
      if (children(s.name()).isEmpty()) {
        terminals.add(s);
      }
    }
    if (terminals.size() != 1) {
      List<String> names = new ArrayList<>();
      terminals.forEach(t -> names.add(t.name()));
      throw new DagException(
          "DAG "
              + name
              + " must end in exactly one terminal stage (one output, committed at job commit);"
              + " stages without children: "
              + names);
    }
    Stage terminal = terminals.get(0);
    if (!terminal.last().conf().containsKey(OUTPUT_FORMAT) && !conf.containsKey(OUTPUT_FORMAT)) {
      throw new DagException(
          "terminal stage '"
              + terminal.name()
              + "' of DAG "
              + name
              + " has no output format: call outputFormat(...) on it");
    }
  }

  static final String INPUT_FORMAT = "mapreduce.job.inputformat.class";
  static final String OUTPUT_FORMAT = "mapreduce.job.outputformat.class";

  /** Declares stages in topological order; {@link #build()} validates the whole DAG. */
  public static final class Builder {
    private final String name;
    private final List<StageBuilder> stages = new ArrayList<>();
    private final Map<String, String> conf = new LinkedHashMap<>();

    private Builder(String name) {
      this.name = name;
    }

    /** A stage without parents: one task per split of its input format. */
    public StageBuilder initial(String stageName) {
      return add(new StageBuilder(this, stageName, Stage.SPLITS, Step.Kind.MAP));
    }

    /**
     * A stage whose tasks run a reducer over their parents' output, partitioned into {@code
     * parallelism} partitions and sorted by this stage's partitioner and comparators.
     */
    public StageBuilder shuffle(String stageName, int parallelism) {
      return add(new StageBuilder(this, stageName, parallelism, Step.Kind.REDUCE));
    }

    /**
     * A stage whose tasks run a mapper over their parents' records as written; as many tasks as its
     * first parent unless {@link StageBuilder#parallelism(int)} says otherwise.
     */
    public StageBuilder forward(String stageName) {
      return add(new StageBuilder(this, stageName, Stage.SAME_AS_PARENT, Step.Kind.MAP));
    }

    /** A setting for every stage. */
    public Builder set(String key, String value) {
      conf.put(key, value);
      return this;
    }

    public PiranhaDag build() {
      List<Stage> built = new ArrayList<>();
      Map<String, Stage> byName = new LinkedHashMap<>();
      for (StageBuilder sb : stages) {
        Stage s = sb.build(byName);
        built.add(s);
        byName.put(s.name(), s);
      }
      return new PiranhaDag(name, built, conf);
    }

    private StageBuilder add(StageBuilder sb) {
      stages.add(sb);
      return sb;
    }
  }

  /** One stage's settings, written through a {@link Job} so stock MapReduce setters apply. */
  public static final class StageBuilder {
    private final Builder owner;
    private final String name;
    private int parallelism;
    private final Step.Kind kind;
    private final List<String> parents = new ArrayList<>();
    private final Job job;

    private StageBuilder(Builder owner, String name, int parallelism, Step.Kind kind) {
      this.owner = owner;
      this.name = name;
      this.parallelism = parallelism;
      this.kind = kind;
      try {
        this.job = Job.getInstance(new Configuration(false));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The stage's settings as a MapReduce job, for setters the builder does not name. */
    public Job job() {
      return job;
    }

    public StageBuilder from(String... parentStages) {
      parents.addAll(List.of(parentStages));
      return this;
    }

    public StageBuilder parallelism(int tasks) {
      this.parallelism = tasks;
      return this;
    }

    @SuppressWarnings("rawtypes")
    public StageBuilder inputFormat(Class<? extends InputFormat> format) {
      job.setInputFormatClass(format);
      return this;
    }

    /**
     * Input paths, resolved when the run starts against its file system (Hadoop's own setter would
     * qualify them now, against an empty configuration).
     */
    public StageBuilder inputPaths(Path... paths) {
      List<String> escaped = new ArrayList<>();
      for (Path p : paths) {
        escaped.add(StringUtils.escapeString(p.toString()));
      }
      job.getConfiguration().set(FileInputFormat.INPUT_DIR, String.join(",", escaped));
      return this;
    }

    @SuppressWarnings("rawtypes")
    public StageBuilder mapper(Class<? extends Mapper> mapper) {
      requireKind(Step.Kind.MAP, "mapper");
      job.setMapperClass(mapper);
      return this;
    }

    /** Key and value classes a map stage writes. */
    public StageBuilder mapOutput(Class<?> key, Class<?> value) {
      job.setMapOutputKeyClass(key);
      job.setMapOutputValueClass(value);
      return this;
    }

    @SuppressWarnings("rawtypes")
    public StageBuilder reducer(Class<? extends Reducer> reducer) {
      requireKind(Step.Kind.REDUCE, "reducer");
      job.setReducerClass(reducer);
      return this;
    }

    @SuppressWarnings("rawtypes")
    public StageBuilder combiner(Class<? extends Reducer> combiner) {
      requireKind(Step.Kind.REDUCE, "combiner");
      job.setCombinerClass(combiner);
      return this;
    }

    @SuppressWarnings("rawtypes")
    public StageBuilder partitioner(Class<? extends Partitioner> partitioner) {
      requireKind(Step.Kind.REDUCE, "partitioner");
      job.setPartitionerClass(partitioner);
      return this;
    }

    @SuppressWarnings("rawtypes")
    public StageBuilder sortComparator(Class<? extends RawComparator> comparator) {
      requireKind(Step.Kind.REDUCE, "sort comparator");
      job.setSortComparatorClass(comparator);
      return this;
    }

    @SuppressWarnings("rawtypes")
    public StageBuilder groupingComparator(Class<? extends RawComparator> comparator) {
      requireKind(Step.Kind.REDUCE, "grouping comparator");
      job.setGroupingComparatorClass(comparator);
      return this;
    }

    /**
     * Key and value classes a reduce stage receives from its parents (default: what its first
     * parent writes).
     */
    public StageBuilder input(Class<?> key, Class<?> value) {
      requireKind(Step.Kind.REDUCE, "input classes");
      job.setMapOutputKeyClass(key);
      job.setMapOutputValueClass(value);
      return this;
    }

    /** Key and value classes a reduce stage writes. */
    public StageBuilder output(Class<?> key, Class<?> value) {
      job.setOutputKeyClass(key);
      job.setOutputValueClass(value);
      return this;
    }

    /** The job's output; only the terminal stage has one. */
    @SuppressWarnings("rawtypes")
    public StageBuilder outputFormat(Class<? extends OutputFormat> format, Path dir) {
      job.setOutputFormatClass(format);
      if (dir != null) {
        // Unqualified, as for the inputs: resolved against the run's file system.
        job.getConfiguration().set(FileOutputFormat.OUTDIR, dir.toString());
      }
      return this;
    }

    public StageBuilder set(String key, String value) {
      job.getConfiguration().set(key, value);
      return this;
    }

    // Chaining back to the DAG builder.

    public StageBuilder initial(String stageName) {
      return owner.initial(stageName);
    }

    public StageBuilder shuffle(String stageName, int tasks) {
      return owner.shuffle(stageName, tasks);
    }

    public StageBuilder forward(String stageName) {
      return owner.forward(stageName);
    }

    public PiranhaDag build() {
      return owner.build();
    }

    private void requireKind(Step.Kind wanted, String what) {
      if (kind != wanted) {
        throw new DagException(
            "stage '"
                + name
                + "' is a "
                + (kind == Step.Kind.MAP ? "map" : "reduce")
                + " stage; a "
                + what
                + " belongs to a "
                + (wanted == Step.Kind.MAP ? "map (initial or forward)" : "shuffle")
                + " stage");
      }
    }

    private Stage build(Map<String, Stage> declared) {
      Configuration c = job.getConfiguration();
      int p = parallelism;
      if (kind == Step.Kind.REDUCE
          && c.getRaw(Job.MAP_OUTPUT_KEY_CLASS) == null
          && !parents.isEmpty()
          && declared.containsKey(parents.get(0))) {
        // A shuffle stage receives what its parent writes, unless told otherwise.
        Stage parent = declared.get(parents.get(0));
        String k = outputKeyOf(parent.last());
        String v = outputValueOf(parent.last());
        if (k != null) {
          c.set(Job.MAP_OUTPUT_KEY_CLASS, k);
        }
        if (v != null) {
          c.set(Job.MAP_OUTPUT_VALUE_CLASS, v);
        }
      }
      Map<String, String> own = new LinkedHashMap<>();
      for (Map.Entry<String, String> e : c) {
        own.put(e.getKey(), e.getValue());
      }
      return new Stage(name, p, parents, List.of(new Step(kind, own)));
    }
  }

  /** The key class a step writes, as set in its own settings (null: not set there). */
  static String outputKeyOf(Step s) {
    Map<String, String> c = s.conf();
    return s.kind() == Step.Kind.MAP
        ? c.getOrDefault(Job.MAP_OUTPUT_KEY_CLASS, c.get(Job.OUTPUT_KEY_CLASS))
        : c.get(Job.OUTPUT_KEY_CLASS);
  }

  static String outputValueOf(Step s) {
    Map<String, String> c = s.conf();
    return s.kind() == Step.Kind.MAP
        ? c.getOrDefault(Job.MAP_OUTPUT_VALUE_CLASS, c.get(Job.OUTPUT_VALUE_CLASS))
        : c.get(Job.OUTPUT_VALUE_CLASS);
  }
}
