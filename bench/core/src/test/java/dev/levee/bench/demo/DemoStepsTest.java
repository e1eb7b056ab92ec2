package dev.levee.bench.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.levee.bench.progress.StepProgress;
import dev.levee.bench.results.Measurement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoStepsTest {
  @Test
  void theSparkSideCountsTheMedianRepetitionsTheHadoopSideFinished(@TempDir Path run)
      throws IOException {
    assertEquals(1, DemoSteps.hadoopRepetitionsDone(run), "no progress file: one repetition");
    StringBuilder state = new StringBuilder("start\t0\n");
    state.append("done\t").append(DemoSteps.HADOOP_CLUSTER).append("\t30.0\n");
    for (int rep = 0; rep < 3; rep++) {
      state.append("done\t").append(DemoSteps.job("hadoop", Measurement.STOCK, rep));
      state.append("\t50.0\n");
      state.append("done\t").append(DemoSteps.job("hadoop", DemoTable.PLUGIN, rep));
      state.append("\t50.0\n");
    }
    state.append("done\t").append(DemoSteps.job("spark", Measurement.STOCK, 5)).append("\t9.0\n");
    Files.writeString(run.resolve(StepProgress.STATE_FILE), state);
    assertEquals(3, DemoSteps.hadoopRepetitionsDone(run));
  }
}
