package dev.levee.themis.plan;

/** How phase 0 partitions a job; see {@link dev.levee.themis.ThemisConf#PLAN_POLICY}. */
public enum PlanPolicy {
  AUTO,
  HASH,
  RANGE,
  KEEP
}
