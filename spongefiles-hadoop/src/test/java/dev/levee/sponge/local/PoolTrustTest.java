package dev.levee.sponge.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 13 items 1 and 2: a pool directory prepared by someone else is refused, links are never
 * followed, and the pool is private to its owner (0700 directory, 0600 files).
 */
class PoolTrustTest {
  private static final int CHUNK = 64 * 1024;
  private static final long CAPACITY = 4L * CHUNK;
  private static final byte[] VICTIM =
      "the server user's own file".getBytes(StandardCharsets.UTF_8);

  private Path base;

  @BeforeEach
  void setUp() throws IOException {
    base = TempDirs.newShmDir("trust");
  }

  @AfterEach
  void tearDown() {
    TempDirs.deleteRecursively(base);
  }

  @Test
  void aSymbolicLinkAsThePoolDirectoryIsRefused() throws IOException {
    Path elsewhere = Files.createDirectory(base.resolve("attacker-dir"));
    Path pool = Files.createSymbolicLink(base.resolve("pool"), elsewhere);
    IOException e =
        assertThrows(IOException.class, () -> SharedMemoryPool.open(pool, CAPACITY, CHUNK));
    assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    try (Stream<Path> files = Files.list(elsewhere)) {
      assertEquals(0, files.count(), "nothing was created through the link");
    }
  }

  @Test
  void symbolicLinksInsideThePoolAreNotFollowed() throws IOException {
    Path pool = Files.createDirectory(base.resolve("pool"));
    Path victimMeta = Files.write(base.resolve("victim-meta"), VICTIM);
    Path victimSegment = Files.write(base.resolve("victim-segment"), VICTIM);
    Files.createSymbolicLink(pool.resolve(SharedMemoryPool.META_FILE), victimMeta);
    IOException e =
        assertThrows(IOException.class, () -> SharedMemoryPool.open(pool, CAPACITY, CHUNK));
    assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    assertArrayEquals(VICTIM, Files.readAllBytes(victimMeta), "the linked file is untouched");

    Files.delete(pool.resolve(SharedMemoryPool.META_FILE));
    Files.createSymbolicLink(pool.resolve("segment-00000"), victimSegment);
    try (SharedMemoryPool p = SharedMemoryPool.open(pool, CAPACITY, CHUNK)) {
      // the link was replaced by a new file, never written through
      assertFalse(Files.isSymbolicLink(pool.resolve("segment-00000")));
      int c = p.allocate(ChunkOwner.currentProcess("h")).orElseThrow();
      p.write(c, ByteBuffer.wrap(new byte[CHUNK]));
    }
    assertArrayEquals(VICTIM, Files.readAllBytes(victimSegment), "the linked file is untouched");
  }

  @Test
  void aDirectoryOthersCanWriteIsRefused() throws IOException {
    Path pool = Files.createDirectory(base.resolve("pool"));
    Files.setPosixFilePermissions(pool, PosixFilePermissions.fromString("rwxrwxrwx"));
    IOException e =
        assertThrows(IOException.class, () -> SharedMemoryPool.open(pool, CAPACITY, CHUNK));
    assertTrue(e.getMessage().contains("lets other users write it"), e.getMessage());
    try (Stream<Path> files = Files.list(pool)) {
      assertEquals(0, files.count());
    }
  }

  @Test
  void aDirectoryOfAnotherUserIsRefused() throws IOException {
    Path pool = Files.createDirectory(base.resolve("pool"));
    UserPrincipal me = PoolDirectory.currentUser();
    UserPrincipal someoneElse = () -> me.getName() + "-not";
    IOException e =
        assertThrows(
            IOException.class, () -> SharedMemoryPool.open(pool, CAPACITY, CHUNK, someoneElse));
    assertTrue(
        e.getMessage().contains("owned by " + me.getName() + ", not by " + someoneElse.getName()),
        e.getMessage());
    try (Stream<Path> files = Files.list(pool)) {
      assertEquals(0, files.count());
    }
  }

  @Test
  void anAncestorOthersCanWriteWithoutTheStickyBitIsRefused() throws IOException {
    Path open = Files.createDirectory(base.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path pool = open.resolve("pool");
    IOException e =
        assertThrows(IOException.class, () -> SharedMemoryPool.open(pool, CAPACITY, CHUNK));
    assertTrue(e.getMessage().contains("not sticky"), e.getMessage());
  }

  @Test
  void thePoolIsPrivateToItsOwner() throws IOException {
    Path pool = Files.createDirectory(base.resolve("pool"));
    Files.setPosixFilePermissions(pool, PosixFilePermissions.fromString("rwxr-xr-x"));
    try (SharedMemoryPool p = SharedMemoryPool.open(pool, CAPACITY, CHUNK)) {
      assertEquals("rwx------", mode(pool));
      List<Path> files;
      try (Stream<Path> s = Files.list(pool)) {
        files = s.toList();
      }
      assertTrue(files.size() >= 2, files.toString());
      for (Path f : files) {
        assertEquals("rw-------", mode(f), f.toString());
        assertEquals(PoolDirectory.currentUser().getName(), Files.getOwner(f).getName());
      }
    }
    Path fresh = base.resolve("made/by/us");
    try (SharedMemoryPool p = SharedMemoryPool.open(fresh, CAPACITY, CHUNK)) {
      assertEquals("rwx------", mode(fresh));
      assertEquals("rwx------", mode(base.resolve("made")));
    }
  }

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
  }
}
