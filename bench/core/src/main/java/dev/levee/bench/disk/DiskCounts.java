package dev.levee.bench.disk;

/**
 * What the emulator counted since it mounted: requests and bytes each way, seeks, the time the
 * emulated disk was busy, and the emulator's own wall and CPU time (its cost next to what it
 * emulates).
 */
public record DiskCounts(
    long readRequests,
    long writeRequests,
    long readBytes,
    long writeBytes,
    long seeks,
    long busyNanos,
    long elapsedNanos,
    long cpuNanos) {

  /** Share of one core the emulator used while mounted. */
  public double coresUsed() {
    return elapsedNanos == 0 ? 0 : (double) cpuNanos / elapsedNanos;
  }

  /** The counts between {@code earlier} and this. */
  public DiskCounts minus(DiskCounts earlier) {
    return new DiskCounts(
        readRequests - earlier.readRequests,
        writeRequests - earlier.writeRequests,
        readBytes - earlier.readBytes,
        writeBytes - earlier.writeBytes,
        seeks - earlier.seeks,
        busyNanos - earlier.busyNanos,
        elapsedNanos - earlier.elapsedNanos,
        cpuNanos - earlier.cpuNanos);
  }
}
