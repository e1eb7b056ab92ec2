package dev.levee.piranha.mr;

import dev.levee.piranha.exec.TaskRuntime;
import java.io.IOException;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * The mapper of every task of a Piranha job. The paper's observation: a map task's input and output
 * are both configurable, so a map task is a general-purpose task; this one reads its role from its
 * split and runs it.
 */
public final class PiranhaTaskMapper extends Mapper<Object, Object, Object, Object> {
  @Override
  public void run(Context context) throws IOException, InterruptedException {
    PiranhaSplit split = (PiranhaSplit) context.getInputSplit();
    new TaskRuntime(context, split.task(), split.inner()).run();
  }
}
