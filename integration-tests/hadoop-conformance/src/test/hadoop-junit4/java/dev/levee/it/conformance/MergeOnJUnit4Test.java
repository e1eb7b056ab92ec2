package dev.levee.it.conformance;

import org.apache.hadoop.mapred.TestMerge;
import org.junit.jupiter.api.Test;
import org.junit.runner.Request;

/** Hadoop's own {@link TestMerge}, unchanged, on Hadoop 3.3/3.4 (JUnit 4). */
class MergeOnJUnit4Test extends TestMerge {

  @Test
  void hadoopsTestsPass() {
    JUnit4Run.assertPasses(Request.aClass(TestMerge.class));
  }
}
