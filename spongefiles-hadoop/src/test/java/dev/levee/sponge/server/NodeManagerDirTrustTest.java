package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.local.PoolDirectory;
import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 28: the NodeManager's job-secrets directory and the node descriptor are trusted by the pool
 * directory's rules. A tenant who could create {@code levee-sponge/job-secrets} (a world-writable,
 * non-sticky directory above it) renamed its own secret file to another application's name and
 * authenticated as that application; whoever controls that directory can plant a descriptor
 * pointing tasks elsewhere.
 */
class NodeManagerDirTrustTest {
  private Path base;

  @BeforeEach
  void setUp() throws IOException {
    base = Files.createTempDirectory("nm-trust");
  }

  @AfterEach
  void tearDown() {
    TempDirs.deleteRecursively(base);
  }

  @Test
  void aJobSecretsDirectoryOthersCouldCreateIsNeitherWrittenNorBelieved() throws IOException {
    Path open = Files.createDirectory(base.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path localDir = Files.createDirectory(open.resolve("nm-local"));
    // What the tenant's rename leaves: the relay's private file of its application, now named as
    // the victim's.
    Path secrets = localDir.resolve(JobSecretDrop.RELATIVE_DIR);
    Files.createDirectories(secrets);
    Files.setPosixFilePermissions(secrets, PosixFilePermissions.fromString("rwx------"));
    Path victim = Files.write(secrets.resolve("application_1_0002"), new byte[] {1, 2, 3});
    Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-------"));

    JobSecretDrop drop = new JobSecretDrop(List.of(localDir));
    assertTrue(
        drop.find("application_1_0002").isEmpty(),
        "a secret in a directory others could have made was believed");
    IOException e =
        assertThrows(IOException.class, () -> drop.put("application_1_0003", new byte[] {4}));
    assertTrue(e.getMessage().contains("not sticky"), e.getMessage());
  }

  @Test
  void aJobSecretsDirectoryOthersMayWriteIsNotBelieved() throws IOException {
    JobSecretDrop drop = new JobSecretDrop(List.of(base));
    drop.put("application_1_0001", new byte[] {1, 2, 3});
    Path secrets = base.resolve(JobSecretDrop.RELATIVE_DIR);
    assertTrue(drop.find("application_1_0001").isPresent());
    Files.setPosixFilePermissions(secrets, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertTrue(
        drop.find("application_1_0001").isEmpty(),
        "a secret in a directory others may write was believed");
  }

  @Test
  void tasksBelieveOnlyADescriptorOfTheNodeManagersUserInATrustedDirectory() throws IOException {
    Path localDir = Files.createDirectory(base.resolve("nm-local"));
    Path file = SpongeNodeDescriptor.in(localDir);
    descriptor().writeTo(file);
    assertEquals(4242, SpongeNodeDescriptor.readFrom(file).port());

    // The checks compare owner names: a name nobody has stands for another user, as in
    // PoolTrustTest, without a second account.
    String me = PoolDirectory.currentUser().getName();
    UserPrincipal someoneElse = () -> me + "-not";
    IOException owner =
        assertThrows(IOException.class, () -> SpongeNodeDescriptor.readFrom(file, someoneElse));
    assertTrue(owner.getMessage().contains("owned by"), owner.getMessage());

    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxrwxrwx"));
    IOException ancestor =
        assertThrows(IOException.class, () -> SpongeNodeDescriptor.readFrom(file));
    assertTrue(ancestor.getMessage().contains("not sticky"), ancestor.getMessage());
  }

  @Test
  void tasksOfOtherUsersCanReadTheDescriptorWhenTheRelayMadeTheDirectoryFirst() throws IOException {
    Path localDir = Files.createDirectory(base.resolve("nm-local"));
    new JobSecretDrop(List.of(localDir)).put("application_1_0001", new byte[] {1});
    Path file = SpongeNodeDescriptor.in(localDir);
    descriptor().writeTo(file);
    assertEquals(
        "rwxr-xr-x",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())),
        "other users' tasks cannot reach node.properties");
    assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(localDir.resolve(JobSecretDrop.RELATIVE_DIR))));
  }

  private static SpongeNodeDescriptor descriptor() {
    return new SpongeNodeDescriptor(
        Path.of("/dev/shm/x"),
        1 << 20,
        1 << 16,
        "h",
        "127.0.0.1",
        4242,
        null,
        "",
        "/levee",
        0,
        true);
  }
}
