package dev.levee.bench.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.demo.DemoSteps;
import dev.levee.bench.progress.StepProgress.Step;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StepProgressTest {
  @TempDir Path tmp;

  private final AtomicLong clock = new AtomicLong(1_000_000);
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private static final List<Step> PLAN =
      List.of(new Step("a", "first", 10), new Step("b", "second", 20), new Step("c", "third", 30));

  private StepProgress progress(Path runDir, Map<String, Double> previous) {
    return new StepProgress(
        "demo",
        PLAN,
        runDir.resolve(StepProgress.STATE_FILE),
        previous,
        new PrintStream(bytes, true),
        clock::get,
        0);
  }

  private List<String> lines() {
    return List.of(bytes.toString(StandardCharsets.UTF_8).split("\\R"));
  }

  @Test
  void stepKOfNWithElapsedAndARemainingEstimateRefinedByFinishedSteps() {
    StepProgress p = progress(tmp, Map.of());
    p.begin("a");
    assertEquals("demo [1/3] first: started; elapsed 0s, about 1m00s left", lines().get(0));
    clock.addAndGet(20_000); // "a" took twice its estimate: the rest is expected to as well
    p.begin("b");
    assertEquals("demo [1/3] first: done in 20s; elapsed 20s, about 1m40s left", lines().get(1));
    assertEquals("demo [2/3] second: started; elapsed 20s, about 1m40s left", lines().get(2));
    clock.addAndGet(10_000); // 10 s into "b", estimated 2 x 20 s
    assertEquals(30 + 60, p.remainingSeconds(), 1e-9);
    clock.addAndGet(30_000);
    p.close();
    assertEquals("demo [2/3] second: done in 40s; elapsed 1m00s, about 1m00s left", lines().get(3));
  }

  @Test
  void aSecondJvmContinuesTheSameRunFromTheStateFile() {
    StepProgress first = progress(tmp, Map.of());
    first.begin("a");
    clock.addAndGet(5_000); // half the estimate
    first.begin("b");
    clock.addAndGet(10_000);
    first.close();
    bytes.reset();
    clock.addAndGet(3_000); // the next JVM starting
    StepProgress second = progress(tmp, Map.of());
    second.begin("c");
    // Elapsed counts from the first JVM's start; scale 15 s / 30 s estimated = 0.5.
    assertEquals("demo [3/3] third: started; elapsed 18s, about 15s left", lines().get(0));
    second.close();
  }

  @Test
  void estimatesComeFromThePreviousRunWhenThereIsOne() throws Exception {
    Path runs = tmp.resolve("runs");
    Path old = runs.resolve("demo-20260101T000000Z");
    StepProgress before = progress(old, Map.of());
    before.begin("a");
    clock.addAndGet(2_000);
    before.begin("b");
    clock.addAndGet(4_000);
    before.begin("c");
    clock.addAndGet(6_000);
    before.close();
    Path now = runs.resolve("demo-20260102T000000Z");
    Files.createDirectories(now);
    Map<String, Double> previous = StepProgress.previousActuals(now, PLAN);
    assertEquals(Map.of("a", 2.0, "b", 4.0, "c", 6.0), previous);
    bytes.reset();
    StepProgress p = progress(now, previous);
    p.begin("a");
    assertEquals("demo [1/3] first: started; elapsed 0s, about 12s left", lines().get(0));
    p.close();
  }

  @Test
  void anUnknownStepIsAnErrorNamingThePlan() {
    StepProgress p = progress(tmp, Map.of());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.begin("z"));
    assertTrue(e.getMessage().contains("[a, b, c]"), e.getMessage());
  }

  @Test
  void theDemoPlanNamesEveryStepBothSidesBegin() {
    List<String> ids = DemoSteps.plan(1, 1).stream().map(Step::id).toList();
    assertEquals(
        List.of(
            "hadoop.cluster",
            "hadoop.input",
            "hadoop.stock.1",
            "hadoop.plugin.1",
            "hadoop.bound.1",
            "hadoop.themis",
            "hadoop.piranha",
            "spark.input",
            "spark.stock.1",
            "spark.plugin.1",
            "spark.hurricane"),
        ids);
    List<String> two = DemoSteps.plan(2, 1).stream().map(Step::id).toList();
    assertEquals(List.of("hadoop.plugin.2", "hadoop.stock.2", "hadoop.bound.2"), two.subList(5, 8));
  }
}
