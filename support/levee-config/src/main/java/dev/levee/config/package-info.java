/**
 * The typed configuration registry each Levee module declares its settings in: {@link
 * dev.levee.config.ConfigKey} (name, type, default, doc, first version), {@link
 * dev.levee.config.ConfigRegistry} (a module's keys under one prefix, unknown-key detection with
 * the nearest known key) and {@link dev.levee.config.ConfigDocs} (the generated docs table and its
 * drift check). Framework-free: modules adapt a Hadoop {@code Configuration} or a {@code SparkConf}
 * through {@link dev.levee.config.ConfigSource}.
 */
package dev.levee.config;
