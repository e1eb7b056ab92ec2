package dev.levee.bench;

import dev.levee.bench.cli.BadArgumentException;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The suites the CLI can run, by name: those found through {@link ServiceLoader} plus any added
 * explicitly.
 */
public final class SuiteRegistry {
  private final Map<String, Suite> byName;

  private SuiteRegistry(Map<String, Suite> byName) {
    this.byName = byName;
  }

  public static SuiteRegistry empty() {
    return new SuiteRegistry(new TreeMap<>());
  }

  /**
   * Every {@link Suite} listed in a {@code META-INF/services/dev.levee.bench.Suite} visible to the
   * loader.
   */
  public static SuiteRegistry discover(ClassLoader loader) {
    SuiteRegistry r = empty();
    for (Suite s : ServiceLoader.load(Suite.class, loader)) {
      r = r.with(s);
    }
    return r;
  }

  /**
   * A registry with {@code suite} added; two suites with one name is a packaging mistake, reported
   * as such.
   */
  public SuiteRegistry with(Suite suite) {
    Map<String, Suite> copy = new TreeMap<>(byName);
    Suite previous = copy.put(suite.name(), suite);
    if (previous != null && previous.getClass() != suite.getClass()) {
      throw new IllegalStateException(
          "two suites are named '"
              + suite.name()
              + "': "
              + previous.getClass().getName()
              + " and "
              + suite.getClass().getName());
    }
    return new SuiteRegistry(copy);
  }

  public boolean contains(String name) {
    return byName.containsKey(name);
  }

  public Suite get(String name) {
    Suite s = byName.get(name);
    if (s == null) {
      throw new BadArgumentException(
          "unknown command or suite '" + name + "'; suites: " + String.join(", ", names()));
    }
    return s;
  }

  public Collection<String> names() {
    return Collections.unmodifiableSet(byName.keySet());
  }

  public Collection<Suite> all() {
    return Collections.unmodifiableCollection(byName.values());
  }
}
