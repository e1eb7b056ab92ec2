package dev.levee.containers;

import java.util.ArrayList;
import java.util.List;

/**
 * Shapes the links of a cluster's containers to a set rate, as an emulation of a slower network: a
 * token bucket ({@code tc qdisc ... tbf}) on the host's end of each container's virtual Ethernet
 * pair, so everything sent to that node passes through it. It runs on the host, as root, and gives
 * the containers no capability: the tasks in them cannot change it. This kernel has no {@code
 * netem}, so only the rate is emulated, not added latency.
 */
final class LinkShaper {
  private final ContainerCluster cluster;
  private final List<String> nodes;
  private final List<String> devices = new ArrayList<>();

  LinkShaper(ContainerCluster cluster, List<String> nodes) {
    this.cluster = cluster;
    this.nodes = List.copyOf(nodes);
  }

  /**
   * Fails with what is needed when this host cannot shape links: iproute2's {@code tc}, run as root
   * (the same user the Docker engine needs).
   */
  static void requireTc() {
    String problem;
    try {
      Docker.Result tc = Docker.run(30, List.of("tc", "-V"));
      String uid = Docker.run(30, List.of("id", "-u")).out().strip();
      problem =
          tc.exitCode() != 0
              ? "`tc -V` exited " + tc.exitCode() + ": " + tc.err().strip()
              : uid.equals("0") ? null : "this runs as uid " + uid + ", not root";
    } catch (IllegalStateException e) {
      problem = e.getMessage();
    }
    if (problem != null) {
      throw new IllegalStateException(
          "shaping the containers' links needs iproute2's tc on this host, run as root: "
              + problem);
    }
  }

  /** Every node's link limited to {@code rate} (tc's syntax, e.g. {@code 1gbit}). */
  void shape(String rate) {
    unshape();
    for (String node : nodes) {
      String device = hostEnd(node);
      run(
          "tc", "qdisc", "replace", "dev", device, "root", "tbf", "rate", rate, "burst", "512kb",
          "latency", "50ms");
      devices.add(device);
    }
  }

  /** What each shaped link's queue reports: bytes sent, packets dropped, times the rate held. */
  String statistics() {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < devices.size(); i++) {
      String stats = run("tc", "-s", "qdisc", "show", "dev", devices.get(i)).out();
      s.append(nodes.get(i))
          .append(": ")
          .append(stats.replaceAll("\\s+", " ").strip())
          .append('\n');
    }
    return s.toString();
  }

  /** Every link back to the bridge's own speed. */
  void unshape() {
    for (String device : devices) {
      Docker.run(30, List.of("tc", "qdisc", "del", "dev", device, "root"));
    }
    devices.clear();
  }

  /** The host's end of {@code node}'s eth0: the interface whose index eth0's iflink names. */
  private String hostEnd(String node) {
    String index = cluster.tryExec(30, node, "cat /sys/class/net/eth0/iflink").out().strip();
    for (String line : run("ip", "-o", "link", "show").out().split("\n")) {
      if (line.startsWith(index + ": ")) {
        String name = line.substring(index.length() + 2).split("[@:]", 2)[0];
        return name.strip();
      }
    }
    throw new IllegalStateException(
        "no host interface with index '" + index + "' (the other end of " + node + "'s eth0)");
  }

  private static Docker.Result run(String... command) {
    return Docker.run(30, List.of(command)).orThrow(List.of(command));
  }
}
