package dev.levee.sponge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.testing.PoolBackedRemoteMemory;
import dev.levee.sponge.testing.SpongeTestRig;
import dev.levee.sponge.tier.StoredChunk;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Byte-exact round trips at the sizes where chunk and tier boundaries fall, over every tier layout.
 */
class SpongeFileRoundTripTest {
  private static final int CHUNK = 64 * 1024;

  enum Layout {
    /** Everything fits the local sponge. */
    LOCAL_ONLY,
    /** 2 local chunks, then 2 servers x 2 chunks, then local disk. */
    LOCAL_REMOTE_DISK,
    /** 1 local chunk, 1 server x 1 chunk, disk off, then DFS (file://). */
    LOCAL_REMOTE_DFS,
    /** Nothing but the disk tier. */
    DISK_ONLY
  }

  static Stream<Arguments> cases() {
    int[] sizes = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5, 12 << 20};
    return Stream.of(Layout.values())
        .flatMap(l -> java.util.Arrays.stream(sizes).mapToObj(s -> Arguments.of(l, s)));
  }

  @ParameterizedTest(name = "{0} {1} B")
  @MethodSource("cases")
  void roundTripsByteExact(Layout layout, int size) throws IOException {
    int poolChunks =
        switch (layout) {
          case LOCAL_ONLY -> 256;
          case LOCAL_REMOTE_DISK -> 2;
          case LOCAL_REMOTE_DFS -> 1;
          case DISK_ONLY -> 1;
        };
    try (SpongeTestRig rig = new SpongeTestRig(CHUNK, poolChunks);
        PoolBackedRemoteMemory remote = new PoolBackedRemoteMemory()) {
      if (layout == Layout.DISK_ONLY) {
        rig.conf.set(SpongeConf.LOCAL_ENABLED.name(), "false");
        rig.conf.set(SpongeConf.DFS_ENABLED.name(), "false");
      }
      if (layout == Layout.LOCAL_REMOTE_DISK) {
        remote.addServer("a", rig.shm.resolve("a"), 2, CHUNK);
        remote.addServer("b", rig.shm.resolve("b"), 2, CHUNK);
      }
      if (layout == Layout.LOCAL_REMOTE_DFS) {
        remote.addServer("a", rig.shm.resolve("a"), 1, CHUNK);
        rig.conf.set(SpongeConf.DISK_ENABLED.name(), "false");
      }
      try (SpongeFileSystem fs =
          rig.open(layout == Layout.LOCAL_ONLY || layout == Layout.DISK_ONLY ? null : remote)) {
        byte[] data = SpongeTestRig.randomBytes(size, size);
        SpongeFile f = fs.create("roundtrip");
        SpongeTestRig.write(f, data);
        assertEquals(size, f.length());
        List<StoredChunk> chunks = f.chunks();
        assertEquals((size + CHUNK - 1) / CHUNK, chunks.size());
        long sum = 0;
        for (StoredChunk c : chunks) {
          sum += c.length();
        }
        assertEquals(size, sum);
        assertArrayEquals(data, SpongeTestRig.readAll(f), "bytes differ after a round trip");
        assertArrayEquals(data, SpongeTestRig.readAll(f), "a second read differs");
        Map<Tier, Long> byTier = f.bytesByTier();
        if (size >= 12 << 20) {
          expectTiers(layout, byTier);
        }
        f.delete();
        assertTrue(f.isDeleted());
        assertEquals(0, fs.openFiles());
        fs.localPool().ifPresent(p -> assertEquals(p.chunkCount(), p.freeChunks()));
      }
    }
  }

  private static void expectTiers(Layout layout, Map<Tier, Long> byTier) {
    switch (layout) {
      case LOCAL_ONLY -> assertEquals(Map.of(Tier.LOCAL_MEMORY, 12L << 20), byTier);
      case LOCAL_REMOTE_DISK -> {
        assertEquals(2L * CHUNK, byTier.get(Tier.LOCAL_MEMORY));
        assertEquals(4L * CHUNK, byTier.get(Tier.REMOTE_MEMORY));
        assertEquals((12L << 20) - 6L * CHUNK, byTier.get(Tier.LOCAL_DISK));
      }
      case LOCAL_REMOTE_DFS -> {
        assertEquals((long) CHUNK, byTier.get(Tier.LOCAL_MEMORY));
        assertEquals((long) CHUNK, byTier.get(Tier.REMOTE_MEMORY));
        assertEquals((12L << 20) - 2L * CHUNK, byTier.get(Tier.DFS));
      }
      case DISK_ONLY -> assertEquals(Map.of(Tier.LOCAL_DISK, 12L << 20), byTier);
    }
  }
}
