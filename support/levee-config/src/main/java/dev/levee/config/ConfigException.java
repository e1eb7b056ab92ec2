package dev.levee.config;

/**
 * A setting whose value cannot be used. The message always names the key, the value as given and
 * what is allowed, because the person who reads it is an operator looking at a site file, not at
 * this code.
 */
public final class ConfigException extends IllegalArgumentException {
  private final String key;
  private final String value;
  private final String allowed;

  public ConfigException(String key, String value, String allowed) {
    this(key, value, allowed, null);
  }

  public ConfigException(String key, String value, String allowed, Throwable cause) {
    super("invalid " + key + "='" + value + "': expected " + allowed, cause);
    this.key = key;
    this.value = value;
    this.allowed = allowed;
  }

  public String key() {
    return key;
  }

  public String value() {
    return value;
  }

  public String allowed() {
    return allowed;
  }
}
