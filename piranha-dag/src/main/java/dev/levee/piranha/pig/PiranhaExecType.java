package dev.levee.piranha.pig;

import java.util.Properties;
import org.apache.pig.backend.executionengine.ExecutionEngine;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.MRExecType;
import org.apache.pig.impl.PigContext;

/**
 * {@code pig -x piranha}: Pig's own MapReduce mode, with its launcher replaced by one that runs
 * each script Piranha supports as one Piranha job and hands every other script to stock Pig. Found
 * by Pig through {@code META-INF/services/org.apache.pig.ExecType}.
 */
public class PiranhaExecType extends MRExecType {
  private static final long serialVersionUID = 1L;

  public static final String NAME = "PIRANHA";

  @Override
  public boolean accepts(Properties properties) {
    return NAME.equalsIgnoreCase(properties.getProperty("exectype", ""));
  }

  @Override
  public ExecutionEngine getExecutionEngine(PigContext pigContext) {
    return new PiranhaExecutionEngine(pigContext);
  }

  @Override
  public Class<? extends ExecutionEngine> getExecutionEngineClass() {
    return PiranhaExecutionEngine.class;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String toString() {
    return NAME;
  }
}
