package dev.levee.piranha.runner;

import dev.levee.piranha.yarn.CapacityCheck;
import java.util.List;

/** The cluster cannot hold the whole DAG at once, and the policy says fail. */
public final class CapacityException extends PiranhaRunException {
  private final transient CapacityCheck.Verdict verdict;

  public CapacityException(String dag, CapacityCheck.Verdict verdict) {
    super(
        "Piranha DAG "
            + dag
            + " does not fit the cluster now: "
            + verdict.explanation()
            + " (levee.piranha.capacity.policy=fail; fallback would run it as chained MapReduce)",
        List.of());
    this.verdict = verdict;
  }

  public CapacityCheck.Verdict verdict() {
    return verdict;
  }
}
