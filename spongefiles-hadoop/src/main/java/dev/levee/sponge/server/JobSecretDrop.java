package dev.levee.sponge.server;

import dev.levee.sponge.local.PoolDirectory;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the NodeManager's ShuffleHandler leaves each running application's job secret for the
 * node's sponge server: one file per application, {@code <NodeManager local dir>/levee-sponge/
 * job-secrets/<application id>}, mode 0600 in a 0700 directory of the NodeManager's user.
 *
 * <p>Why a file: MapReduce's ApplicationMaster gives the job's shuffle token only to the {@code
 * mapreduce_shuffle} service; every other service named in {@code
 * mapreduce.job.shuffle.provider.services} gets an empty buffer (Hadoop's TaskAttemptImpl says so:
 * "this only serves for INIT_APP notifications"). {@link JobSecretRelayingShuffleHandler}, in that
 * service's place, passes the secret on. Both run in the NodeManager, possibly in different class
 * loaders (an aux service's own classpath), so a file the NodeManager's user alone can read is the
 * handover; tasks of other users cannot read it, and tasks of that user could read the job tokens
 * in the NodeManager's private directories anyway.
 */
final class JobSecretDrop {
  private static final Logger LOG = LoggerFactory.getLogger(JobSecretDrop.class);
  static final String RELATIVE_DIR = "levee-sponge/job-secrets";

  /** A client names the application: only YARN's own id syntax ever becomes a file name. */
  private static final Pattern APPLICATION_ID =
      Pattern.compile("application_[0-9]{1,20}_[0-9]{1,10}");

  private static final Set<PosixFilePermission> OWNER_ONLY =
      EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

  /** The secrets' directory: the NodeManager's user's alone, fixed as its parent is. */
  static final PoolDirectory.Purpose SECRETS_DIR =
      new PoolDirectory.Purpose(
          "sponge job-secrets directory",
          PosixFilePermissions.fromString("rwx------"),
          SpongeNodeDescriptor.NODE_DIR.fix());

  private final List<Path> nodeManagerLocalDirs;

  JobSecretDrop(List<Path> nodeManagerLocalDirs) {
    this.nodeManagerLocalDirs = List.copyOf(nodeManagerLocalDirs);
  }

  static boolean isApplicationId(String id) {
    return id != null && APPLICATION_ID.matcher(id).matches();
  }

  /** Leaves {@code secret} for {@code applicationId} in the first local dir that takes it. */
  void put(String applicationId, byte[] secret) throws IOException {
    if (!isApplicationId(applicationId)) {
      throw new IllegalArgumentException("not an application id: " + applicationId);
    }
    IOException first = null;
    for (Path localDir : nodeManagerLocalDirs) {
      Path dir = localDir.resolve(RELATIVE_DIR);
      try {
        // Trusted like the pool: a directory someone else made or could swap is refused, since
        // whoever controls it could rename one application's secret to another's name.
        UserPrincipal me = PoolDirectory.currentUser();
        PoolDirectory.secure(
            SpongeNodeDescriptor.nodeDirIn(localDir), me, SpongeNodeDescriptor.NODE_DIR);
        PoolDirectory.secure(dir, me, SECRETS_DIR);
        Path tmp =
            Files.createTempFile(
                dir, "." + applicationId, ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        try {
          Files.write(tmp, secret);
          move(tmp, dir.resolve(applicationId));
        } finally {
          Files.deleteIfExists(tmp);
        }
        return;
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    throw first != null ? first : new IOException("no NodeManager local dir to leave it in");
  }

  /** Removes {@code applicationId}'s secret from every local dir. */
  void remove(String applicationId) {
    if (!isApplicationId(applicationId)) {
      return;
    }
    for (Path localDir : nodeManagerLocalDirs) {
      try {
        Files.deleteIfExists(localDir.resolve(RELATIVE_DIR).resolve(applicationId));
      } catch (IOException e) {
        LOG.warn(
            "cannot remove the job secret of {} from {}: {}",
            applicationId,
            localDir,
            e.toString());
      }
    }
  }

  /**
   * The secret left for {@code applicationId}, if any: only from a regular file (never through a
   * link) of this process's user that nobody else may read or write, in a directory trusted as the
   * pool's is (its own and every ancestor).
   */
  Optional<byte[]> find(String applicationId) {
    if (!isApplicationId(applicationId)) {
      return Optional.empty();
    }
    for (Path localDir : nodeManagerLocalDirs) {
      Path file = localDir.resolve(RELATIVE_DIR).resolve(applicationId);
      try {
        UserPrincipal me = PoolDirectory.currentUser();
        PosixFileAttributes a = PoolDirectory.checkWrittenBy(file, me, SECRETS_DIR);
        if (!OWNER_ONLY.containsAll(a.permissions())) {
          LOG.warn(
              "ignoring the job secret file {}: it must be a regular file of {} with mode 600",
              file,
              me.getName());
          continue;
        }
        byte[] secret = PoolDirectory.readSmallFile(file, "job secret file " + file, 4096);
        if (secret.length > 0) {
          return Optional.of(secret);
        }
      } catch (NoSuchFileException e) {
        // not here: the next dir, or not at all
      } catch (IOException e) {
        LOG.warn("cannot read the job secret file {}: {}", file, e.toString());
      }
    }
    return Optional.empty();
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
