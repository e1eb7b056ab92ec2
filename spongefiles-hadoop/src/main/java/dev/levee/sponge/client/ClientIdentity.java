package dev.levee.sponge.client;

import java.util.Objects;

/**
 * Who allocates: the application (the unit of quota on every server; a YARN application id such as
 * {@code application_1700000000000_0001} so that the NodeManager aux service can free its chunks
 * when the application ends), the owning pid, and the owner's node as its sponge server knows it
 * ({@code host:port}, or just {@code host} when every server listens on the configured port). A
 * server garbage-collects a chunk once the owner's node says the pid is gone.
 */
public record ClientIdentity(String applicationId, long pid, String ownerNode, String rack) {
  public ClientIdentity {
    Objects.requireNonNull(applicationId, "applicationId");
    Objects.requireNonNull(ownerNode, "ownerNode");
    if (applicationId.isEmpty()) {
      throw new IllegalArgumentException("application id must not be empty");
    }
    if (pid <= 0) {
      throw new IllegalArgumentException("owner pid must be positive, got " + pid);
    }
  }

  /** This JVM, owned by {@code ownerNode}, in {@code rack} (null when topology is unknown). */
  public static ClientIdentity ofCurrentProcess(
      String applicationId, String ownerNode, String rack) {
    return new ClientIdentity(applicationId, ProcessHandle.current().pid(), ownerNode, rack);
  }
}
