package dev.levee.piranha;

/**
 * The counters a Piranha job reports in its own group, beside MapReduce's: per edge what was pushed
 * and received, per stage what was spilled and waited for, and the attempt that produced the
 * output. They show in the JobHistory like any counter.
 */
public final class PiranhaCounters {
  private PiranhaCounters() {}

  public static final String GROUP = "Piranha";

  /** The whole-job attempt that produced the output (written once, by one terminal task). */
  public static final String ATTEMPT = "attempt";

  /** Records the terminal stage wrote to the job's output (MapReduce's counters mix stages). */
  public static final String OUTPUT_RECORDS = "output records";

  public static String pushedRecords(String edge) {
    return edge + " pushed records";
  }

  public static String pushedBytes(String edge) {
    return edge + " pushed bytes";
  }

  public static String receivedRecords(String edge) {
    return edge + " received records";
  }

  public static String receivedBytes(String edge) {
    return edge + " received bytes";
  }

  /** Runs a stage's tasks wrote to local disk because they did not fit in memory. */
  public static String spills(String stage) {
    return stage + " spilled runs";
  }

  public static String spilledBytes(String stage) {
    return stage + " spilled bytes";
  }

  /** Sum over the stage's tasks of the time spent waiting for children to register. */
  public static String rendezvousWaitMs(String stage) {
    return stage + " rendezvous wait ms";
  }

  /** Sum over the stage's tasks of the time spent waiting for all parents' streams. */
  public static String inputWaitMs(String stage) {
    return stage + " input wait ms";
  }
}
