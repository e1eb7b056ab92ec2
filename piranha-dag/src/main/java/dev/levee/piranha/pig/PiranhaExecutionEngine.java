package dev.levee.piranha.pig;

import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.MRExecutionEngine;
import org.apache.pig.impl.PigContext;

/** Pig's MapReduce engine with the Piranha launcher. */
public class PiranhaExecutionEngine extends MRExecutionEngine {
  public PiranhaExecutionEngine(PigContext pigContext) {
    super(pigContext);
    this.launcher = new PiranhaLauncher();
  }
}
