package dev.levee.bench.limits;

import dev.levee.bench.disk.DiskPlace;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A disk probe as run on a {@link DiskPlace}: on an emulated disk its variant carries "-emulated",
 * so that its lines never stand in for the real disk's limits, and its parameters say which disk.
 */
final class OnDiskPlace implements BandwidthProbe {
  private final BandwidthProbe probe;
  private final DiskPlace place;

  OnDiskPlace(BandwidthProbe probe, DiskPlace place) {
    this.probe = probe;
    this.place = place;
  }

  @Override
  public String variant() {
    return place.isEmulated() ? probe.variant() + "-emulated" : probe.variant();
  }

  @Override
  public Map<String, Object> params() {
    Map<String, Object> p = new LinkedHashMap<>(probe.params());
    p.putAll(place.params());
    return p;
  }

  @Override
  public String method() {
    return place.isEmulated() ? probe.method() + "; on the " + place.label() : probe.method();
  }

  @Override
  public void setUp() throws Exception {
    probe.setUp();
  }

  @Override
  public boolean wantsWarmUp() {
    return probe.wantsWarmUp();
  }

  @Override
  public Sample measure() throws Exception {
    return probe.measure();
  }

  @Override
  public void close() throws Exception {
    probe.close();
  }
}
