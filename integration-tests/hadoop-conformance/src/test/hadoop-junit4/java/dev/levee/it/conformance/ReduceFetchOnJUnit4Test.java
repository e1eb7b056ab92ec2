package dev.levee.it.conformance;

import org.apache.hadoop.mapred.TestReduceFetch;
import org.junit.jupiter.api.Test;
import org.junit.runner.Description;
import org.junit.runner.Request;
import org.junit.runner.manipulation.Filter;

/**
 * Hadoop's own {@link TestReduceFetch} on Hadoop 3.3/3.4 (JUnit 4), leaving out the same two tests
 * as ReduceFetchWithSpongeTest does on 3.5, for the same reasons: testReduceFromDisk asserts
 * stock's intermediate merge passes, which SpongeFiles remove by design; testReduceFromPartialMem
 * runs once, as TestReduceFetchFromPartialMem.
 */
class ReduceFetchOnJUnit4Test extends TestReduceFetch {

  @Test
  void hadoopsTestsPass() {
    JUnit4Run.assertPasses(
        Request.aClass(TestReduceFetch.class)
            .filterWith(
                new Filter() {
                  @Override
                  public boolean shouldRun(Description d) {
                    String m = d.getMethodName();
                    return m == null
                        || !(m.equals("testReduceFromDisk")
                            || m.equals("testReduceFromPartialMem"));
                  }

                  @Override
                  public String describe() {
                    return "all but testReduceFromDisk and testReduceFromPartialMem";
                  }
                }));
  }
}
