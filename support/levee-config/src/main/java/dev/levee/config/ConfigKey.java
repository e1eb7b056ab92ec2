package dev.levee.config;

import java.util.Objects;

/**
 * One setting of a module: its name, type, default, documentation and the version it appeared in.
 * Values are read and validated only through here, so a key's meaning cannot drift between the
 * classes that use it.
 */
public final class ConfigKey<T> {
  private final String name;
  private final ValueType<T> type;
  private final String defaultText;
  private final String defaultDescription;
  private final String doc;
  private final String since;

  ConfigKey(
      String name,
      ValueType<T> type,
      String defaultText,
      String defaultDescription,
      String doc,
      String since) {
    this.name = Objects.requireNonNull(name, "name");
    this.type = Objects.requireNonNull(type, "type of " + name);
    this.defaultText = Objects.requireNonNull(defaultText, "default of " + name);
    this.defaultDescription = defaultDescription;
    this.doc = Objects.requireNonNull(doc, "doc of " + name);
    this.since = Objects.requireNonNull(since, "since of " + name);
    if (doc.isBlank()) {
      throw new IllegalArgumentException(name + " has no documentation");
    }
    // A default the key's own type rejects is a bug in the registry, not in a user's file: fail at
    // class load.
    parse(defaultText);
  }

  public String name() {
    return name;
  }

  public String doc() {
    return doc;
  }

  public String since() {
    return since;
  }

  /** The default as text, exactly as a user would write it. */
  public String defaultText() {
    return defaultText;
  }

  /** The default as the docs show it: the text, or what an empty or computed default means. */
  public String defaultDescription() {
    return defaultDescription != null ? defaultDescription : defaultText;
  }

  public String allowed() {
    return type.allowed();
  }

  public T defaultValue() {
    return parse(defaultText);
  }

  /**
   * The value {@code source} sets, or the default; a value outside the type fails naming this key.
   */
  public T from(ConfigSource source) {
    String raw = source.get(name);
    return parse(raw == null ? defaultText : raw);
  }

  /** Whether {@code source} sets this key at all. */
  public boolean isSet(ConfigSource source) {
    return source.get(name) != null;
  }

  public T parse(String text) {
    String trimmed = text == null ? "" : text.trim();
    try {
      return type.parse(trimmed);
    } catch (ConfigException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new ConfigException(name, trimmed, type.allowed(), e);
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
