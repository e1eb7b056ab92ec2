package dev.levee.piranha.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.piranha.PiranhaCounters;
import dev.levee.piranha.dag.PiranhaDag;
import dev.levee.piranha.dag.Stage;
import dev.levee.piranha.dag.Step;
import dev.levee.piranha.examples.TopWords;
import dev.levee.piranha.mr.JobKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole-job fault tolerance in one JVM: a task that fails fails its attempt, the runner removes the
 * partial output and reruns everything, then falls back or fails as configured.
 */
class LocalRunnerFaultTest {
  /** Comma-separated Piranha attempts in which the count stage's reducer fails. */
  static final String FAIL_IN = "levee.test.fail-in-attempts";

  @TempDir static Path dir;
  static LocalFixture fixture;
  static org.apache.hadoop.fs.Path input;
  static List<String> stock;

  @BeforeAll
  static void setUp() throws Exception {
    fixture = new LocalFixture(dir);
    input =
        new org.apache.hadoop.fs.Path(LocalFixture.words(dir.resolve("in"), 2, 200, 7).toString());
    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(dir.resolve("stock").toString());
    LocalFixture.runAll(
        TopWords.chain(
            fixture.conf(),
            input,
            new org.apache.hadoop.fs.Path(dir.resolve("stock-tmp").toString()),
            out,
            2,
            10));
    stock = LocalFixture.output(dir.resolve("stock"));
  }

  @AfterAll
  static void tearDown() throws Exception {
    fixture.close();
  }

  /** A LongSumReducer that fails when its Piranha attempt is listed. */
  public static final class FailingSum
      extends org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer<Text> {
    @Override
    protected void setup(Context context) throws IOException {
      String attempt = context.getConfiguration().get(JobKeys.ATTEMPT);
      for (String a : context.getConfiguration().getTrimmedStrings(FAIL_IN)) {
        if (a.equals(attempt)) {
          throw new IOException("injected failure in attempt " + attempt);
        }
      }
    }
  }

  private static PiranhaDag failingDag(String name, String failIn) {
    PiranhaDag dag =
        TopWords.dag(input, new org.apache.hadoop.fs.Path(dir.resolve(name).toString()), 2, 10);
    List<Stage> stages = new ArrayList<>();
    for (Stage s : dag.stages()) {
      if (s.name().equals("count")) {
        Map<String, String> c = new LinkedHashMap<>(s.first().conf());
        c.put("mapreduce.job.reduce.class", FailingSum.class.getName());
        c.put(FAIL_IN, failIn);
        s = s.withSteps(List.of(new Step(Step.Kind.REDUCE, c)));
      }
      stages.add(s);
    }
    return dag.withStages(stages);
  }

  @Test
  void aFailedAttemptIsRerunWhole() throws Exception {
    RunResult r = new PiranhaRunner(fixture.conf()).run(failingDag("rerun", "1"));
    assertEquals(RunResult.Mode.PIRANHA, r.mode());
    assertEquals(2, r.attempts());
    assertEquals(1, r.failedAttempts().size());
    assertTrue(
        r.failedAttempts().get(0).contains("injected failure in attempt 1"),
        r.failedAttempts().toString());
    assertEquals(
        2, r.counters().findCounter(PiranhaCounters.GROUP, PiranhaCounters.ATTEMPT).getValue());
    assertEquals(stock, LocalFixture.output(dir.resolve("rerun")));
  }

  @Test
  void failingEveryAttemptLeavesNoOutput() throws Exception {
    Configuration conf = fixture.conf();
    conf.set("levee.piranha.job.on-exhausted", "fail");
    PiranhaRunException e =
        assertThrows(
            PiranhaRunException.class,
            () -> new PiranhaRunner(conf).run(failingDag("never", "1,2")));
    assertEquals(2, e.causes().size(), e.getMessage());
    assertTrue(e.getMessage().contains("failed in all 2 attempts"), e.getMessage());
    assertFalse(
        Files.exists(dir.resolve("never")), "no partial output, not even an empty directory");
  }

  @Test
  void exhaustedAttemptsFallBackToChainedMapReduce() throws Exception {
    // Attempts 1 and 2 fail; the chained jobs carry no attempt number, so they do not.
    RunResult r = new PiranhaRunner(fixture.conf()).run(failingDag("fallback", "1,2"));
    assertEquals(RunResult.Mode.CHAINED_MAPREDUCE, r.mode());
    assertEquals(2, r.failedAttempts().size());
    assertTrue(r.fallbackReason().contains("all 2 Piranha attempts failed"), r.fallbackReason());
    assertEquals(2, r.jobIds().size(), "the DAG ran as two stock jobs");
    assertEquals(stock, LocalFixture.output(dir.resolve("fallback")));
  }
}
