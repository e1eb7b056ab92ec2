package dev.levee.sponge.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 28: the cluster secret file's owner and group-write bits were not checked (a file of
 * another user and a 0660 file were accepted), so whoever could write it chose the secret every
 * server trusts.
 */
class ClusterSecretFileTest {
  private static final byte[] SECRET = "a cluster secret of 32 bytes....".getBytes();
  private Path dir;
  private Path file;

  @BeforeEach
  void setUp() throws IOException {
    dir = Files.createTempDirectory("sponge-secret");
    file = Files.write(dir.resolve("secret"), SECRET);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
  }

  @AfterEach
  void tearDown() throws IOException {
    Files.deleteIfExists(dir.resolve("link"));
    Files.deleteIfExists(file);
    Files.deleteIfExists(dir);
  }

  private byte[] read(Path p) throws IOException {
    return new WireAuthConfig(true, p.toString()).clusterSecret();
  }

  @Test
  void aPrivateFileOfThisUserIsRead() throws IOException {
    assertArrayEquals(SECRET, read(file));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
    assertArrayEquals(SECRET, read(file));
  }

  @Test
  void aFileItsGroupMayWriteIsRefused() throws IOException {
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw----"));
    IOException e = assertThrows(IOException.class, () -> read(file));
    assertTrue(e.getMessage().contains("rw-rw----"), e.getMessage());
  }

  @Test
  void aFileOfAnotherUserIsRefused() throws IOException {
    assumeTrue(
        "root".equals(System.getProperty("user.name")), "giving a file to another user takes root");
    UserPrincipal nobody =
        file.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    Files.setOwner(file, nobody);
    IOException e = assertThrows(IOException.class, () -> read(file));
    assertTrue(e.getMessage().contains("owned by nobody"), e.getMessage());
  }

  @Test
  void aLinkIsRefused() throws IOException {
    Path link = Files.createSymbolicLink(dir.resolve("link"), file);
    IOException e = assertThrows(IOException.class, () -> read(link));
    assertTrue(e.getMessage().contains("links refused"), e.getMessage());
  }
}
