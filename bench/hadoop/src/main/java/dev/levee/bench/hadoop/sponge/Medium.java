package dev.levee.bench.hadoop.sponge;

import java.util.Arrays;
import java.util.List;

/**
 * The spill media of Table 1, in the paper's column order, with the paper's measured ms per 1 MB
 * chunk.
 */
enum Medium {
  LOCAL_SHM("local-shm", "local shared memory (pool)", 1, Yardstick.MEMCPY),
  LOCAL_SPONGEFILE(
      "local-spongefile", "local shared memory (SpongeFile)", Double.NaN, Yardstick.MEMCPY),
  LOCAL_SERVER("local-server", "local sponge server (socket)", 7, Yardstick.TCP),
  /**
   * One synchronous store per chunk: each chunk's time is a full round trip (the latency a chunk
   * really has).
   */
  REMOTE_SERVER("remote-server", "remote sponge server (loopback)", 9, Yardstick.TCP),
  /**
   * A SpongeFile on remote memory only: chunks pipelined on one connection, as a spilling task
   * writes them.
   */
  REMOTE_SPONGEFILE(
      "remote-spongefile", "remote SpongeFile (pipelined, loopback)", Double.NaN, Yardstick.TCP),
  /**
   * The same with {@code levee.sponge.remote.replicas=2}: each chunk goes to two servers before it
   * counts as placed. The price of surviving a lost node, paid on every chunk.
   */
  REMOTE_SPONGEFILE_TWO_COPIES(
      "remote-spongefile-2copies",
      "remote SpongeFile, 2 copies (pipelined, loopback)",
      Double.NaN,
      Yardstick.TCP),
  /**
   * {@link #REMOTE_SPONGEFILE} against a server that requires authentication (the default install):
   * each file's connection starts with a CHALLENGE and an AUTHENTICATE round trip.
   */
  REMOTE_SPONGEFILE_AUTH(
      "remote-spongefile-auth",
      "remote SpongeFile, authenticated (pipelined, loopback)",
      Double.NaN,
      Yardstick.TCP),
  /** The same over TLS: a TLS handshake per connection, and every chunk encrypted. */
  REMOTE_SPONGEFILE_TLS(
      "remote-spongefile-tls",
      "remote SpongeFile, TLS + authenticated (pipelined, loopback)",
      Double.NaN,
      Yardstick.TCP),
  DISK("disk", "disk", 25, Yardstick.DISK),
  DISK_BACKGROUND_IO("disk-bg-io", "disk + background IO", 174, Yardstick.DISK),
  DISK_BACKGROUND_IO_MEMORY(
      "disk-bg-io-mem", "disk + background IO + memory pressure", 499, Yardstick.DISK);

  /** What a medium's bandwidth is compared with. */
  enum Yardstick {
    MEMCPY,
    TCP,
    DISK
  }

  final String variant;
  final String label;
  final double paperMillis;
  final Yardstick yardstick;

  Medium(String variant, String label, double paperMillis, Yardstick yardstick) {
    this.variant = variant;
    this.label = label;
    this.paperMillis = paperMillis;
    this.yardstick = yardstick;
  }

  boolean usesDisk() {
    return yardstick == Yardstick.DISK;
  }

  boolean hasBackgroundIo() {
    return this == DISK_BACKGROUND_IO || this == DISK_BACKGROUND_IO_MEMORY;
  }

  static List<String> variants() {
    return Arrays.stream(values()).map(m -> m.variant).toList();
  }

  static Medium ofVariant(String variant) {
    for (Medium m : values()) {
      if (m.variant.equals(variant)) {
        return m;
      }
    }
    throw new IllegalArgumentException("no medium " + variant);
  }
}
