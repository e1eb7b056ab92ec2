package dev.levee.bench.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.cli.BadArgumentException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class MountTableTest {
  private static final MountTable MOUNTS =
      MountTable.parse(
          String.join(
              "\n",
              "/dev/vda / ext4 rw,relatime 0 0",
              "tmpfs /dev/shm tmpfs rw,relatime,size=24684084k 0 0",
              "/dev/vdb /data xfs rw 0 0",
              "tmpfs /data/scratch tmpfs rw 0 0",
              "/dev/vdc /mnt/with\\040space ext4 rw 0 0",
              ""));

  @Test
  void longestMountPointWins() {
    assertEquals("/", MOUNTS.mountOf(Path.of("/var/tmp/x")).mountPoint());
    assertEquals("/data", MOUNTS.mountOf(Path.of("/data/spill")).mountPoint());
    assertEquals("tmpfs", MOUNTS.mountOf(Path.of("/data/scratch/a")).type());
    // A sibling whose name merely starts with a mount point is not under it.
    assertEquals("/", MOUNTS.mountOf(Path.of("/dev/shmx")).mountPoint());
    assertEquals("/mnt/with space", MOUNTS.mountOf(Path.of("/mnt/with space/d")).mountPoint());
  }

  @Test
  void refusesTmpfsNamingTheOption() {
    BadArgumentException e =
        assertThrows(
            BadArgumentException.class,
            () -> MOUNTS.requireDisk("disk-dir", Path.of("/dev/shm/spill")));
    assertTrue(e.getMessage().contains("--disk-dir /dev/shm/spill is on tmpfs"), e.getMessage());
    assertThrows(
        BadArgumentException.class, () -> MOUNTS.requireDisk("disk-dir", Path.of("/data/scratch")));
    assertEquals(
        "xfs", MOUNTS.requireDisk("disk-dir", Path.of("/data/not-yet-created/dir")).type());
  }

  @Test
  void thisMachinesShmIsRefused() throws Exception {
    MountTable real = MountTable.current();
    if (real.mountOf(Path.of("/dev/shm")).type().equals("tmpfs")) {
      assertThrows(
          BadArgumentException.class,
          () -> real.requireDisk("disk-dir", Path.of("/dev/shm/levee-x")));
    }
  }
}
