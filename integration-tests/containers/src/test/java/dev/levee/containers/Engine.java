package dev.levee.containers;

/** Whether this machine can run the container tier, and what to say when it cannot. */
final class Engine {
  static final String SKIP_MESSAGE =
      "\n*** CONTAINER TIER SKIPPED: no Docker engine answers on this machine. ***\n"
          + "*** As root, integration-tests/containers/image/ensure-engine.sh installs and starts one (.ci/run does). ***";

  private static Boolean reachable;

  private Engine() {}

  static synchronized boolean reachable() {
    if (reachable == null) {
      reachable = Docker.engineReachable();
      if (!reachable) {
        System.err.println(SKIP_MESSAGE);
      }
    }
    return reachable;
  }
}
