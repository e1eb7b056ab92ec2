package dev.levee.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Every setting of one module, under one prefix ({@code levee.sponge.}, {@code
 * spark.levee.leaky.}). Modules declare their keys as constants built here and keep the registry as
 * a constant beside them; the module's docs table is generated from it ({@link ConfigDocs}) and a
 * key set under the prefix that the registry does not know is reported with the nearest known key,
 * so a typo does not silently fall back to a default.
 */
public final class ConfigRegistry {
  private final String module;
  private final String prefix;
  private final Map<String, ConfigKey<?>> keys;
  private final List<Pattern> families;
  private final Set<String> reported = ConcurrentHashMap.newKeySet();

  private ConfigRegistry(
      String module, String prefix, Map<String, ConfigKey<?>> keys, List<Pattern> families) {
    this.module = module;
    this.prefix = prefix;
    this.keys = Collections.unmodifiableMap(keys);
    this.families = List.copyOf(families);
  }

  public static Builder builder(String module, String prefix) {
    return new Builder(module, prefix);
  }

  public String module() {
    return module;
  }

  public String prefix() {
    return prefix;
  }

  /** In declaration order, which is the order the docs list them. */
  public List<ConfigKey<?>> keys() {
    return List.copyOf(keys.values());
  }

  public Optional<ConfigKey<?>> key(String name) {
    return Optional.ofNullable(keys.get(name));
  }

  /**
   * Parses every registered key {@code source} sets, so a bad value anywhere fails now, at
   * start-up, rather than when a code path first reads it; returns the keys under the prefix nobody
   * registered.
   */
  public List<UnknownKey> validate(ConfigSource source) {
    for (ConfigKey<?> k : keys.values()) {
      if (k.isSet(source)) {
        k.from(source);
      }
    }
    return unknownKeys(source);
  }

  /**
   * {@link #validate(ConfigSource)}, then hands each unknown key's message to {@code warning} the
   * first time this registry sees that key: tasks in a reused JVM, and every shuffle reader and
   * writer, validate the same configuration again, and one warning per misspelt key is enough.
   */
  public void validate(ConfigSource source, Consumer<String> warning) {
    for (UnknownKey unknown : validate(source)) {
      if (reported.add(unknown.name())) {
        warning.accept(unknown.message());
      }
    }
  }

  /**
   * Keys {@code source} sets under this registry's prefix that are not registered, each with its
   * nearest key.
   */
  public List<UnknownKey> unknownKeys(ConfigSource source) {
    List<UnknownKey> unknown = new ArrayList<>();
    for (String name : source.keys()) {
      if (name.startsWith(prefix)
          && !keys.containsKey(name)
          && families.stream().noneMatch(p -> p.matcher(name).matches())) {
        unknown.add(new UnknownKey(name, nearest(name)));
      }
    }
    unknown.sort((a, b) -> a.name().compareTo(b.name()));
    return unknown;
  }

  /**
   * The registered key closest to {@code name} by edit distance, if any is close enough to be a
   * plausible typo.
   */
  public Optional<String> nearest(String name) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String k : keys.keySet()) {
      int d = EditDistance.between(name, k);
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    int tolerated = Math.max(3, name.length() / 4);
    return best != null && bestDistance <= tolerated ? Optional.of(best) : Optional.empty();
  }

  /** A key under the prefix that no one registered. */
  public record UnknownKey(String name, Optional<String> nearest) {
    public String message() {
      return "unknown setting "
          + name
          + " is ignored"
          + nearest.map(n -> "; did you mean " + n + "?").orElse("");
    }
  }

  /** Collects a module's keys; {@link #build()} once, after the last key. */
  public static final class Builder {
    private final String module;
    private final String prefix;
    private final Map<String, ConfigKey<?>> keys = new LinkedHashMap<>();
    private final List<Pattern> families = new ArrayList<>();
    private boolean built;

    private Builder(String module, String prefix) {
      if (!prefix.endsWith(".")) {
        throw new IllegalArgumentException("prefix must end with '.': " + prefix);
      }
      this.module = module;
      this.prefix = prefix;
    }

    /** Starts a key; {@code name} is the full key and must start with the registry's prefix. */
    public <T> KeyBuilder<T> key(String name, ValueType<T> type) {
      if (!name.startsWith(prefix)) {
        throw new IllegalArgumentException(name + " is not under " + prefix);
      }
      return new KeyBuilder<>(this, name, type);
    }

    /**
     * Declares a family of keys whose names carry data (for example a per-queue setting), matched
     * by a regular expression on the full name, so they are not reported as unknown. Their values
     * are the reading code's to check.
     */
    public Builder family(String regex) {
      families.add(Pattern.compile(regex));
      return this;
    }

    public ConfigRegistry build() {
      built = true;
      return new ConfigRegistry(module, prefix, new LinkedHashMap<>(keys), families);
    }

    private <T> ConfigKey<T> add(ConfigKey<T> key) {
      if (built) {
        throw new IllegalStateException(
            key.name() + " declared after the registry of " + module + " was built");
      }
      if (keys.putIfAbsent(key.name(), key) != null) {
        throw new IllegalStateException(key.name() + " declared twice");
      }
      return key;
    }
  }

  /** One key under construction. A default, a doc and a version are required. */
  public static final class KeyBuilder<T> {
    private final Builder owner;
    private final String name;
    private final ValueType<T> type;
    private String defaultText;
    private String defaultDescription;
    private String doc;
    private String since;

    private KeyBuilder(Builder owner, String name, ValueType<T> type) {
      this.owner = owner;
      this.name = name;
      this.type = type;
    }

    /** The default, written as a user would write it in a site file. */
    public KeyBuilder<T> defaultValue(String text) {
      this.defaultText = text;
      return this;
    }

    /**
     * How the docs describe the default when the text alone does not say it (an empty or computed
     * default).
     */
    public KeyBuilder<T> defaultDescription(String description) {
      this.defaultDescription = description;
      return this;
    }

    public KeyBuilder<T> doc(String doc) {
      this.doc = doc;
      return this;
    }

    /** The Levee version the key first appeared in. */
    public KeyBuilder<T> since(String version) {
      this.since = version;
      return this;
    }

    public ConfigKey<T> build() {
      return owner.add(new ConfigKey<>(name, type, defaultText, defaultDescription, doc, since));
    }
  }
}
