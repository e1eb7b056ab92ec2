package dev.levee.piranha.transport;

/**
 * The ports a push server may listen on: {@code 0} for any free port, or {@code lo-hi} for
 * firewalled clusters.
 */
public record PortRange(int low, int high) {

  public static final PortRange ANY = new PortRange(0, 0);

  public PortRange {
    if (!(low == 0 && high == 0) && (low < 1024 || high > 65535 || low > high)) {
      throw new IllegalArgumentException(
          "not a port range between 1024 and 65535: " + low + "-" + high);
    }
  }

  /** Parses {@code 0} or {@code lo-hi}; throws IllegalArgumentException otherwise. */
  public static PortRange parse(String text) {
    String t = text.trim();
    if (t.equals("0")) {
      return ANY;
    }
    int dash = t.indexOf('-');
    if (dash <= 0) {
      throw new IllegalArgumentException("not 0 or lo-hi: " + text);
    }
    return new PortRange(
        Integer.parseInt(t.substring(0, dash).trim()),
        Integer.parseInt(t.substring(dash + 1).trim()));
  }

  public boolean any() {
    return low == 0;
  }

  @Override
  public String toString() {
    return any() ? "0" : low + "-" + high;
  }
}
