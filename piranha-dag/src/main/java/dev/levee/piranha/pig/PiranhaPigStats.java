package dev.levee.piranha.pig;

import dev.levee.piranha.PiranhaCounters;
import dev.levee.piranha.runner.RunResult;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobClient;
import org.apache.pig.PigRunner;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.POStore;
import org.apache.pig.impl.PigContext;
import org.apache.pig.tools.pigstats.JobStats;
import org.apache.pig.tools.pigstats.OutputStats;
import org.apache.pig.tools.pigstats.PigStats;

/**
 * What a script run as one Piranha job reports to Pig, as stock Pig's statistics would: success,
 * its one job, and its output with the records written (counted by the terminal stage) and the
 * bytes stored (read from the output as Pig reads them), so that {@code ExecJob.getStatistics()},
 * {@code PigStats.getRecordWritten()} and Pig's summary at the end of a script carry real numbers.
 * Input statistics are not reported: the first stage's records are not counted apart from the
 * pushed ones.
 */
final class PiranhaPigStats extends PigStats {
  private final PiranhaJobStats job;

  PiranhaPigStats(PigContext pc, Configuration conf, POStore store, RunResult run) {
    this.pigContext = pc;
    this.userId = System.getProperty("user.name");
    this.startTime = run.submittedMillis();
    this.endTime = run.finishedMillis();
    this.jobPlan = new JobGraph();
    long records =
        run.counters() == null
            ? -1
            : run.counters()
                .findCounter(PiranhaCounters.GROUP, PiranhaCounters.OUTPUT_RECORDS)
                .getValue();
    OutputStats output =
        new OutputStats(
            store.getSFile().getFileName(), JobStats.getOutputSize(store, conf), records, true);
    output.setPOStore(store);
    output.setConf(conf);
    this.job = new PiranhaJobStats(jobPlan, run, output);
    jobPlan.add(job);
    setReturnCode(PigRunner.ReturnCode.SUCCESS);
  }

  @Override
  public JobClient getJobClient() {
    throw new UnsupportedOperationException(
        "a Piranha run has no JobClient of its own; its job is " + job.getJobId());
  }

  @Override
  public boolean isEmbedded() {
    return false;
  }

  @Override
  public Map<String, List<PigStats>> getAllStats() {
    throw new UnsupportedOperationException("not an embedded script");
  }

  @Override
  public List<String> getAllErrorMessages() {
    throw new UnsupportedOperationException("not an embedded script");
  }

  @Override
  public String getDisplayString() {
    SimpleDateFormat at = new SimpleDateFormat(DATE_FORMAT);
    StringBuilder sb = new StringBuilder("Script Statistics (Piranha):\n");
    sb.append("UserId\tStartedAt\tFinishedAt\n")
        .append(userId)
        .append('\t')
        .append(at.format(new Date(startTime)))
        .append('\t')
        .append(at.format(new Date(endTime)))
        .append("\n\nSuccess!\n\nJob Stats:\n")
        .append(job.getDisplayString())
        .append("\nOutput(s):\n");
    for (OutputStats o : getOutputStats()) {
      sb.append(o.getDisplayString());
    }
    return sb.append("\nCounters:\n")
        .append("Total records written : ")
        .append(getRecordWritten())
        .append("\nTotal bytes written : ")
        .append(getBytesWritten())
        .append("\nSpillable Memory Manager spill count : ")
        .append(getSMMSpillCount())
        .append("\nTotal bags proactively spilled: ")
        .append(getProactiveSpillCountObjects())
        .append("\nTotal records proactively spilled: ")
        .append(getProactiveSpillCountRecords())
        .append('\n')
        .toString();
  }

  @Override
  public long getSMMSpillCount() {
    return job.getSMMSpillCount();
  }

  @Override
  public long getProactiveSpillCountObjects() {
    return job.getProactiveSpillCountObjects();
  }

  @Override
  public long getProactiveSpillCountRecords() {
    return job.getProactiveSpillCountRecs();
  }
}
