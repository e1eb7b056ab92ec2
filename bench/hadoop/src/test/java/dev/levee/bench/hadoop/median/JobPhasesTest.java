package dev.levee.bench.hadoop.median;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.hadoop.mapred.TIPStatus;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.junit.jupiter.api.Test;

class JobPhasesTest {
  private static final org.apache.hadoop.mapred.JobID JOB =
      new org.apache.hadoop.mapred.JobID("1", 1);

  private static TaskReport task(TaskType type, int id, long start, long finish) {
    return new TaskReport(
        new org.apache.hadoop.mapred.TaskID(JOB, type, id),
        1f,
        "done",
        new String[0],
        TIPStatus.COMPLETE,
        start,
        finish,
        new Counters());
  }

  @Test
  void phasesFromTheEarliestStartAndLatestFinishOfEachKind() {
    TaskReport[] maps = {
      task(TaskType.MAP, 0, 10_000, 30_000), task(TaskType.MAP, 1, 11_000, 33_000)
    };
    // The reducer started 2 s before the last map ended and finished at 40 s; the job took 36 s.
    TaskReport[] reduces = {task(TaskType.REDUCE, 0, 31_000, 40_000)};
    JobPhases p = JobPhases.of(maps, reduces, 36.0);
    assertEquals(23.0, p.mapSeconds(), 1e-9);
    assertEquals(-2.0, p.reduceWaitSeconds(), 1e-9);
    assertEquals(9.0, p.reduceSeconds(), 1e-9);
    assertEquals(6.0, p.outsideSeconds(), 1e-9, "36 s of job, 30 s inside the tasks");
    assertEquals(23.0, p.metrics().get("map_phase_seconds"), 1e-9);
    assertEquals(6.0, p.metrics().get("outside_tasks_seconds"), 1e-9);
  }

  @Test
  void aJobWithoutReducesHasNoPhases() {
    TaskReport[] maps = {task(TaskType.MAP, 0, 0, 1)};
    assertThrows(IllegalArgumentException.class, () -> JobPhases.of(maps, new TaskReport[0], 1.0));
  }
}
