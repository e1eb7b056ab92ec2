package dev.levee.sponge.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The trust checks on the pool directory and its files. Anyone can create a directory in {@code
 * /dev/shm} before the NodeManager starts, so nothing found there is trusted by name:
 *
 * <ul>
 *   <li>the pool directory must be a real directory (not a symbolic link) owned by the expected
 *       user (the sponge server's) and writable by nobody else; it is made (or tightened to) mode
 *       0700, so other users cannot even list it;
 *   <li>every ancestor must be owned by root or that user, and one that others can write must be
 *       sticky (like {@code /dev/shm} and {@code /tmp}), so nobody can rename the pool directory
 *       and put another in its place;
 *   <li>files in it are opened without following links ({@code O_NOFOLLOW}), created mode 0600, and
 *       must be regular files owned by the expected user.
 * </ul>
 *
 * The expected owner is a parameter so a test can prove that a directory of another user is refused
 * without a second Unix account.
 */
public final class PoolDirectory {
  static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
  static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
  private static final int STICKY = 01000;

  private final Path dir;
  private final UserPrincipal owner;

  private PoolDirectory(Path dir, UserPrincipal owner) {
    this.dir = dir;
    this.owner = owner;
  }

  /**
   * Creates {@code dir} (mode 0700, and its missing parents) or checks the one there, as described
   * above.
   *
   * @throws IOException naming what is wrong and what is allowed when the directory cannot be
   *     trusted
   */
  public static PoolDirectory secure(Path dir, UserPrincipal expectedOwner) throws IOException {
    return secure(dir, expectedOwner, POOL);
  }

  /**
   * What a directory checked this way holds: its name in messages, the mode it is made (or set) to,
   * and how an operator fixes a refusal. The pool, the NodeManager's job secrets and the directory
   * of the node descriptor are all trusted by these same rules.
   */
  public record Purpose(String label, Set<PosixFilePermission> mode, String fix) {}

  public static final Purpose POOL =
      new Purpose(
          "sponge pool directory",
          DIR_MODE,
          "; remove it (or choose another levee.sponge.local.pool.dir) and restart");

  /**
   * Creates {@code dir} (mode {@code purpose.mode()}, and its missing parents) or checks the one
   * there: a real directory of {@code expectedOwner} that nobody else may write, under ancestors
   * nobody else could swap it in (see the class comment); its mode is then set to {@code
   * purpose.mode()}.
   */
  public static PoolDirectory secure(Path dir, UserPrincipal expectedOwner, Purpose purpose)
      throws IOException {
    Path abs = dir.toAbsolutePath().normalize();
    createMissing(abs, purpose.mode());
    PosixFileAttributes a = checkDirectory(abs, expectedOwner, purpose);
    if (!a.permissions().equals(purpose.mode())) {
      // Ours and writable only by us: who may read it is what we set, not what we refuse.
      Files.setPosixFilePermissions(abs, purpose.mode());
    }
    checkAncestors(abs, expectedOwner, purpose);
    return new PoolDirectory(abs, expectedOwner);
  }

  /**
   * Checks, changing nothing, that {@code file} is a regular file (not a link) of {@code
   * expectedOwner} that nobody else may write, in a directory trusted as {@link #secure} would
   * trust it: how a process of another user (a task) believes what the NodeManager left for it.
   *
   * @return the file's attributes, as checked
   */
  public static PosixFileAttributes checkWrittenBy(
      Path file, UserPrincipal expectedOwner, Purpose purpose) throws IOException {
    Path abs = file.toAbsolutePath().normalize();
    PosixFileAttributes a = attributes(abs);
    String what = "refusing " + abs;
    requireRegularFile(a, what, purpose.fix());
    requireOwner(a, expectedOwner, what, purpose.fix());
    requireNotWritableByOthers(a, what, purpose.fix());
    checkDirectory(abs.getParent(), expectedOwner, purpose);
    checkAncestors(abs.getParent(), expectedOwner, purpose);
    return a;
  }

  /** Checks the directory {@code abs} as {@link #secure} does; returns its attributes. */
  private static PosixFileAttributes checkDirectory(
      Path abs, UserPrincipal expectedOwner, Purpose purpose) throws IOException {
    PosixFileAttributes a = attributes(abs);
    String what = "refusing " + purpose.label() + " " + abs;
    if (a.isSymbolicLink()) {
      throw new IOException(what + ": it is a symbolic link" + purpose.fix());
    }
    if (!a.isDirectory()) {
      throw new IOException(what + ": not a directory" + purpose.fix());
    }
    requireOwner(a, expectedOwner, what, " (the user this sponge runs as)" + purpose.fix());
    requireNotWritableByOthers(
        a,
        what,
        "; only " + PosixFilePermissions.toString(purpose.mode()) + " is allowed" + purpose.fix());
    return a;
  }

  /** The user this process runs as (the owner of {@code /proc/self}, i.e. the effective uid). */
  public static UserPrincipal currentUser() throws IOException {
    Path self = Path.of("/proc/self");
    if (Files.exists(self)) {
      return Files.getOwner(self);
    }
    return self.getFileSystem()
        .getUserPrincipalLookupService()
        .lookupPrincipalByName(System.getProperty("user.name"));
  }

  public Path path() {
    return dir;
  }

  public UserPrincipal owner() {
    return owner;
  }

  /**
   * Opens {@code name} in the pool directory without following a link, creating it (mode 0600) if
   * {@code create}; checks that it is a regular file owned by the expected user.
   */
  public FileChannel open(String name, boolean create, OpenOption... extra) throws IOException {
    Path file = dir.resolve(name);
    Set<OpenOption> options = new HashSet<>(List.of(extra));
    options.add(LinkOption.NOFOLLOW_LINKS);
    options.add(StandardOpenOption.READ);
    options.add(StandardOpenOption.WRITE);
    if (create) {
      options.add(StandardOpenOption.CREATE);
    }
    FileChannel ch;
    try {
      ch = FileChannel.open(file, options, fileMode());
    } catch (NoSuchFileException | FileAlreadyExistsException e) {
      throw e;
    } catch (IOException e) {
      // O_NOFOLLOW fails with ELOOP on a link: say what it is
      if (Files.isSymbolicLink(file)) {
        throw new IOException(
            "refusing sponge pool file " + file + ": it is a symbolic link (remove it)", e);
      }
      throw e;
    }
    try {
      checkFile(file);
      return ch;
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /** Throws unless {@code name} is a regular file (not a link) owned by the expected user. */
  void checkFile(Path file) throws IOException {
    PosixFileAttributes a = attributes(file);
    String what = "refusing sponge pool file " + file;
    requireRegularFile(a, what, " (remove it)");
    requireOwner(a, owner, what, "");
    if (!a.permissions().equals(FILE_MODE)) {
      Files.setPosixFilePermissions(file, FILE_MODE);
    }
  }

  /**
   * The whole of {@code file} (a secret), opened without following a link ({@code O_NOFOLLOW});
   * refused unread when it holds more than {@code maxBytes}. {@code name} names it in messages.
   */
  public static byte[] readSmallFile(Path file, String name, int maxBytes) throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      long size = ch.size();
      if (size > maxBytes) {
        throw new IOException(
            name + " holds " + size + " bytes; a secret file holds at most " + maxBytes);
      }
      ByteBuffer b = ByteBuffer.allocate((int) size);
      while (b.hasRemaining() && ch.read(b) >= 0) {
        // until full or at its end
      }
      return Arrays.copyOf(b.array(), b.position());
    }
  }

  static FileAttribute<Set<PosixFilePermission>> fileMode() {
    return PosixFilePermissions.asFileAttribute(FILE_MODE);
  }

  private static void createMissing(Path abs, Set<PosixFilePermission> mode) throws IOException {
    List<Path> missing = new ArrayList<>();
    for (Path p = abs;
        p != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS);
        p = p.getParent()) {
      missing.add(0, p);
    }
    for (Path p : missing) {
      try {
        Files.createDirectory(p, PosixFilePermissions.asFileAttribute(mode));
      } catch (FileAlreadyExistsException raced) {
        // another process made it meanwhile: it is checked like any directory found there
      }
    }
  }

  private static void checkAncestors(Path abs, UserPrincipal expectedOwner, Purpose purpose)
      throws IOException {
    Path parent = abs.getParent();
    if (parent == null) {
      return;
    }
    for (Path p = parent.toRealPath(); p != null; p = p.getParent()) {
      int uid = (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      int mode = (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
      String name = Files.getOwner(p, LinkOption.NOFOLLOW_LINKS).getName();
      if (uid != 0 && !name.equals(expectedOwner.getName())) {
        throw new IOException(
            "refusing "
                + purpose.label()
                + " "
                + abs
                + ": its ancestor "
                + p
                + " is owned by "
                + name
                + ", who could replace it; every ancestor must be owned by root"
                + " or "
                + expectedOwner.getName());
      }
      if ((mode & 022) != 0 && (mode & STICKY) == 0) {
        throw new IOException(
            "refusing "
                + purpose.label()
                + " "
                + abs
                + ": its ancestor "
                + p
                + " is writable by other users and not sticky (mode "
                + Integer.toOctalString(mode & 07777)
                + "), so they could replace it");
      }
    }
  }

  private static void requireRegularFile(PosixFileAttributes a, String what, String fix)
      throws IOException {
    if (!a.isRegularFile()) {
      throw new IOException(
          what
              + ": it is "
              + (a.isSymbolicLink() ? "a symbolic link" : "not a regular file")
              + fix);
    }
  }

  private static void requireOwner(
      PosixFileAttributes a, UserPrincipal expectedOwner, String what, String fix)
      throws IOException {
    if (!a.owner().getName().equals(expectedOwner.getName())) {
      throw new IOException(
          what
              + ": it is owned by "
              + a.owner().getName()
              + ", not by "
              + expectedOwner.getName()
              + fix);
    }
  }

  private static void requireNotWritableByOthers(PosixFileAttributes a, String what, String fix)
      throws IOException {
    if (writableByOthers(a.permissions())) {
      throw new IOException(
          what
              + ": mode "
              + PosixFilePermissions.toString(a.permissions())
              + " lets other users write it"
              + fix);
    }
  }

  private static boolean writableByOthers(Set<PosixFilePermission> perms) {
    return perms.contains(PosixFilePermission.GROUP_WRITE)
        || perms.contains(PosixFilePermission.OTHERS_WRITE);
  }

  private static PosixFileAttributes attributes(Path p) throws IOException {
    return Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
  }
}
