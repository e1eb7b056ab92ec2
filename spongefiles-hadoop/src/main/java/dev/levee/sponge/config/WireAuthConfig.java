package dev.levee.sponge.config;

import dev.levee.config.ConfigSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * How sponge connections are authenticated: whether a server requires it, and where the cluster
 * secret lives.
 */
public record WireAuthConfig(boolean required, String secretFile) {
  /** Shorter secrets are refused: 128 bits is the least an HMAC key should carry. */
  public static final int MIN_SECRET_BYTES = 16;

  static WireAuthConfig from(ConfigSource s) {
    return new WireAuthConfig(
        SpongeConf.AUTH_REQUIRED.from(s), SpongeConf.AUTH_SECRET_FILE.from(s));
  }

  /** The cluster secret, or null when no file is configured. */
  public byte[] clusterSecret() throws IOException {
    if (secretFile.isEmpty()) {
      return null;
    }
    Path p = Path.of(secretFile);
    if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(
          SpongeConf.AUTH_SECRET_FILE.name() + " " + p + " is not a regular file (links refused)");
    }
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
      if (perms.contains(PosixFilePermission.OTHERS_READ)
          || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
        throw new IOException(
            SpongeConf.AUTH_SECRET_FILE.name()
                + " "
                + p
                + " is readable or writable by other users; chmod 600 or 640 it");
      }
    } catch (UnsupportedOperationException notPosix) {
      // not a POSIX file system: nothing to check
    }
    byte[] secret = Files.readAllBytes(p);
    if (secret.length < MIN_SECRET_BYTES) {
      throw new IOException(
          SpongeConf.AUTH_SECRET_FILE.name()
              + " "
              + p
              + " holds "
              + secret.length
              + " bytes; a secret needs at least "
              + MIN_SECRET_BYTES);
    }
    return secret;
  }
}
