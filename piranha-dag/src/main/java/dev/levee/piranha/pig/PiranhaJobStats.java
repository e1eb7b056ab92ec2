package dev.levee.piranha.pig;

import dev.levee.piranha.runner.RunResult;
import java.util.Map;
import org.apache.hadoop.mapred.Counters;
import org.apache.pig.PigCounters;
import org.apache.pig.impl.logicalLayer.FrontendException;
import org.apache.pig.newplan.PlanVisitor;
import org.apache.pig.tools.pigstats.OutputStats;
import org.apache.pig.tools.pigstats.PigStats.JobGraph;
import org.apache.pig.tools.pigstats.PigStats.JobGraphPrinter;

/**
 * A Piranha run as one job in Pig's statistics: its MapReduce job id, its one output with the
 * records the terminal stage wrote and the bytes in the output directory, and the spill counts of
 * Pig's bags from the job's counters. Map and reduce figures (task counts and times, record counts
 * per side) do not apply to a DAG whose stages all run as map tasks: they read -1, as Pig's own
 * statistics do for what they do not know.
 */
final class PiranhaJobStats extends org.apache.pig.tools.pigstats.JobStats {
  private final RunResult run;

  PiranhaJobStats(JobGraph plan, RunResult run, OutputStats output) {
    super(String.join(",", run.jobIds()), plan);
    this.run = run;
    outputs.add(output);
    setSuccessful(true);
  }

  @Override
  public String getJobId() {
    return String.join(",", run.jobIds());
  }

  @Override
  public void accept(PlanVisitor v) throws FrontendException {
    if (v instanceof JobGraphPrinter printer) {
      printer.visit(this);
    }
  }

  @Override
  public String getDisplayString() {
    return String.format(
        "%s\tPiranha DAG of stages %s, attempt %d, %.1f s%n",
        getJobId(), String.join(" -> ", run.stageNames()), run.attempts(), run.seconds());
  }

  long pigCounter(PigCounters c) {
    return run.counters() == null ? -1 : run.counters().findCounter(c).getValue();
  }

  @Override
  public int getNumberMaps() {
    return -1;
  }

  @Override
  public int getNumberReduces() {
    return -1;
  }

  @Override
  public long getMaxMapTime() {
    return -1;
  }

  @Override
  public long getMinMapTime() {
    return -1;
  }

  @Override
  public long getAvgMapTime() {
    return -1;
  }

  @Override
  public long getMaxReduceTime() {
    return -1;
  }

  @Override
  public long getMinReduceTime() {
    return -1;
  }

  @Override
  public long getAvgREduceTime() {
    return -1;
  }

  @Override
  public long getMapInputRecords() {
    return -1;
  }

  @Override
  public long getMapOutputRecords() {
    return -1;
  }

  @Override
  public long getReduceInputRecords() {
    return -1;
  }

  @Override
  public long getReduceOutputRecords() {
    return -1;
  }

  @Override
  public long getSMMSpillCount() {
    return pigCounter(PigCounters.SPILLABLE_MEMORY_MANAGER_SPILL_COUNT);
  }

  @Override
  public long getProactiveSpillCountObjects() {
    return pigCounter(PigCounters.PROACTIVE_SPILL_COUNT_BAGS);
  }

  @Override
  public long getProactiveSpillCountRecs() {
    return pigCounter(PigCounters.PROACTIVE_SPILL_COUNT_RECS);
  }

  @Override
  public Counters getHadoopCounters() {
    return run.counters() == null ? null : new Counters(run.counters());
  }

  @Override
  public Map<String, Long> getMultiStoreCounters() {
    return Map.of();
  }

  @Override
  public Map<String, Long> getMultiInputCounters() {
    return Map.of();
  }
}
