package dev.levee.it.conformance;

import org.apache.hadoop.mapred.TestReduceFetchFromPartialMem;
import org.junit.jupiter.api.Test;
import org.junit.runner.Request;

/** Hadoop's own {@link TestReduceFetchFromPartialMem}, unchanged, on Hadoop 3.3/3.4 (JUnit 4). */
class ReduceFetchFromPartialMemOnJUnit4Test extends TestReduceFetchFromPartialMem {

  @Test
  void hadoopsTestsPass() {
    JUnit4Run.assertPasses(Request.aClass(TestReduceFetchFromPartialMem.class));
  }
}
