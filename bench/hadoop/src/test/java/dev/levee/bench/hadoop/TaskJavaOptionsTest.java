package dev.levee.bench.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.levee.bench.cli.OptionsCommand;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.junit.jupiter.api.Test;

class TaskJavaOptionsTest {
  @Test
  void theFlagsFollowEachArmsOwnTaskOptionsAndAreRecorded() {
    TaskJavaOptions o =
        OptionsCommand.parse(
            new TaskJavaOptions(),
            List.of("--task-java-opts", " -XX:StartFlightRecording=filename=/tmp/t-@taskid@.jfr "));
    Configuration conf = new Configuration(false);
    conf.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx48m");
    o.applyTo(conf);
    assertEquals(
        "-Xmx48m -XX:StartFlightRecording=filename=/tmp/t-@taskid@.jfr",
        conf.get(MRJobConfig.REDUCE_JAVA_OPTS));
    assertEquals(
        "-XX:StartFlightRecording=filename=/tmp/t-@taskid@.jfr",
        conf.get(MRJobConfig.MAP_JAVA_OPTS));
    Map<String, Object> params = new HashMap<>();
    o.record(params);
    assertEquals(
        "-XX:StartFlightRecording=filename=/tmp/t-@taskid@.jfr", params.get("task_java_opts"));
  }

  @Test
  void withoutFlagsNothingChangesAndNothingIsRecorded() {
    TaskJavaOptions o = OptionsCommand.parse(new TaskJavaOptions(), List.of());
    Configuration conf = new Configuration(false);
    conf.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx48m");
    o.applyTo(conf);
    assertEquals("-Xmx48m", conf.get(MRJobConfig.REDUCE_JAVA_OPTS));
    assertEquals(null, conf.get(MRJobConfig.MAP_JAVA_OPTS));
    Map<String, Object> params = new HashMap<>();
    o.record(params);
    assertFalse(params.containsKey("task_java_opts"));
  }
}
