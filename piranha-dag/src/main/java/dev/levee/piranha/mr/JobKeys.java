package dev.levee.piranha.mr;

import org.apache.hadoop.io.Text;

/** The settings the runner writes into a Piranha job for its tasks; not for users. */
public final class JobKeys {
  private JobKeys() {}

  /** The encoded {@link dev.levee.piranha.plan.RunPlan}. */
  public static final String PLAN = "levee.piranha.internal.plan";

  public static final String RUN_ID = "levee.piranha.internal.run-id";
  public static final String ATTEMPT = "levee.piranha.internal.attempt";

  /** Set by a terminal task on its own configuration: its partition, for the output file name. */
  public static final String TERMINAL_PARTITION = "levee.piranha.internal.terminal-partition";

  /** Alias of the run's push secret in the job's credentials. */
  public static final Text SECRET = new Text("levee.piranha.push-secret");
}
