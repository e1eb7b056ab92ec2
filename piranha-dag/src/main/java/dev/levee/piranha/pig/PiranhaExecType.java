package dev.levee.piranha.pig;

import java.util.Properties;
import org.apache.pig.ExecType;
import org.apache.pig.backend.executionengine.ExecutionEngine;
import org.apache.pig.impl.PigContext;

/**
 * {@code pig -x piranha}: Pig's own MapReduce mode, with its launcher replaced by one that runs
 * each script Piranha supports as one Piranha job and hands every other script to stock Pig. Found
 * by Pig through {@code META-INF/services/org.apache.pig.ExecType}.
 *
 * <p>It implements {@link ExecType} rather than extending Pig's {@code MRExecType}: Pig 0.18's
 * lookup by name ({@code ExecTypeProvider}, behind {@code -x} and {@code
 * ExecTypeProvider.fromString}) swaps any {@code MRExecType} it picks for its own MAPREDUCE
 * singleton, so a subclass found by name ran every script on stock Pig, silently. What {@code
 * MRExecType} gives a mode, a cluster (not local) execution on {@link PiranhaExecutionEngine}
 * (Pig's MapReduce engine), is all said here.
 */
public class PiranhaExecType implements ExecType {
  private static final long serialVersionUID = 2L;

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
  public boolean isLocal() {
    return false;
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
