package dev.levee.sponge.config;

import dev.levee.config.ConfigSource;
import dev.levee.sponge.local.PoolDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * How sponge connections are authenticated: whether a server requires it, and where the cluster
 * secret lives.
 */
public record WireAuthConfig(boolean required, String secretFile) {
  /** Shorter secrets are refused: 128 bits is the least an HMAC key should carry. */
  public static final int MIN_SECRET_BYTES = 16;

  /** A secret file is small; anything larger is not one (and is not read whole into memory). */
  static final int MAX_SECRET_BYTES = 64 * 1024;

  static WireAuthConfig from(ConfigSource s) {
    return new WireAuthConfig(
        SpongeConf.AUTH_REQUIRED.from(s), SpongeConf.AUTH_SECRET_FILE.from(s));
  }

  /**
   * The cluster secret, or null when no file is configured. The file must be a regular file (a link
   * is refused, also if one is swapped in while it is read) owned by root or the user this process
   * runs as, that nobody else may write and others may not read (mode 600, or 640 for a group of
   * readers): whoever could write it could choose the secret every server trusts.
   */
  public byte[] clusterSecret() throws IOException {
    if (secretFile.isEmpty()) {
      return null;
    }
    Path p = Path.of(secretFile);
    String name = SpongeConf.AUTH_SECRET_FILE.name() + " " + p;
    PosixFileAttributes before = trusted(p, name);
    byte[] secret;
    try {
      secret = PoolDirectory.readSmallFile(p, name, MAX_SECRET_BYTES);
    } catch (IOException e) {
      if (Files.isSymbolicLink(p)) {
        throw new IOException(name + " is not a regular file (links refused)", e);
      }
      throw e;
    }
    PosixFileAttributes after = trusted(p, name);
    if (before.fileKey() != null && !before.fileKey().equals(after.fileKey())) {
      throw new IOException(name + " was replaced while it was read; refusing it");
    }
    if (secret.length < MIN_SECRET_BYTES) {
      throw new IOException(
          name + " holds " + secret.length + " bytes; a secret needs at least " + MIN_SECRET_BYTES);
    }
    return secret;
  }

  private static PosixFileAttributes trusted(Path p, String name) throws IOException {
    PosixFileAttributes a;
    try {
      a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (UnsupportedOperationException notPosix) {
      throw new IOException(name + " is on a file system without owners and modes; refusing it");
    }
    if (!a.isRegularFile()) {
      throw new IOException(name + " is not a regular file (links refused)");
    }
    String me = PoolDirectory.currentUser().getName();
    String owner = a.owner().getName();
    if (!owner.equals("root") && !owner.equals(me)) {
      throw new IOException(
          name
              + " is owned by "
              + owner
              + "; only root or "
              + me
              + " (this process's user) may own it");
    }
    Set<PosixFilePermission> perms = a.permissions();
    if (perms.contains(PosixFilePermission.GROUP_WRITE)
        || perms.contains(PosixFilePermission.OTHERS_WRITE)
        || perms.contains(PosixFilePermission.OTHERS_READ)) {
      throw new IOException(
          name
              + " has mode "
              + PosixFilePermissions.toString(perms)
              + ": other users may read or write it; chmod 600 or 640 it");
    }
    return a;
  }
}
