package dev.levee.piranha.pig;

import dev.levee.piranha.exec.StepChain;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.PigInputFormat;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.PigSplit;
import org.apache.pig.impl.plan.OperatorKey;
import org.apache.pig.impl.util.ObjectSerializer;

/**
 * The split a Pig map step sees when its tuples arrive from a parent stage rather than from a file:
 * Pig's mappers look up, in their split, which operators of the map plan the input feeds.
 */
public final class PigSplitFactory implements StepChain.SplitFactory {
  @Override
  @SuppressWarnings("unchecked")
  public InputSplit splitFor(Configuration stepConf, InputSplit taskSplit) throws IOException {
    List<List<OperatorKey>> targets =
        (List<List<OperatorKey>>)
            ObjectSerializer.deserialize(stepConf.get(PigInputFormat.PIG_INPUT_TARGETS));
    if (targets == null || targets.isEmpty()) {
      throw new IOException("the Pig job of this stage names no input targets");
    }
    PigSplit split = new PigSplit(new InputSplit[] {taskSplit}, 0, targets.get(0), 0);
    split.setConf(stepConf);
    return split;
  }
}
