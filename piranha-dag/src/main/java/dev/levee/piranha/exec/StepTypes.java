package dev.levee.piranha.exec;

import dev.levee.piranha.dag.Step;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.task.JobContextImpl;

/**
 * The classes of the records a step writes, read as MapReduce reads them: a map step writes its map
 * output classes, a reduce step its job output classes. A front end whose declared classes differ
 * from what its code writes (Pig's reducers write null keys and tuples) names the real ones in
 * {@value #OUTPUT_KEY} and {@value #OUTPUT_VALUE}.
 */
public final class StepTypes {
  public static final String OUTPUT_KEY = "levee.piranha.internal.output.key.class";
  public static final String OUTPUT_VALUE = "levee.piranha.internal.output.value.class";

  private StepTypes() {}

  public static Class<?> outputKey(Step.Kind kind, Configuration stepConf) {
    if (stepConf.get(OUTPUT_KEY) != null) {
      return stepConf.getClass(OUTPUT_KEY, null);
    }
    JobContext c = new JobContextImpl(stepConf, null);
    return kind == Step.Kind.MAP ? c.getMapOutputKeyClass() : c.getOutputKeyClass();
  }

  public static Class<?> outputValue(Step.Kind kind, Configuration stepConf) {
    if (stepConf.get(OUTPUT_VALUE) != null) {
      return stepConf.getClass(OUTPUT_VALUE, null);
    }
    JobContext c = new JobContextImpl(stepConf, null);
    return kind == Step.Kind.MAP ? c.getMapOutputValueClass() : c.getOutputValueClass();
  }
}
