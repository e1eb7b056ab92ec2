package dev.levee.sponge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.local.SharedMemoryPool;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.testing.PoolBackedRemoteMemory;
import dev.levee.sponge.testing.SpongeTestRig;
import dev.levee.sponge.tier.StoredChunk;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Chunks go local sponge, then remote sponges, then local disk, then DFS, and really land there.
 */
class SpongeFilePlacementTest {
  private static final int CHUNK = 64 * 1024;

  @Test
  void fillsEachTierInOrderAndTheBytesLandWhereClaimed() throws Exception {
    try (SpongeTestRig rig = new SpongeTestRig(CHUNK, 3);
        PoolBackedRemoteMemory remote = new PoolBackedRemoteMemory()) {
      SpongeServerAddress a = remote.addServer("a", rig.shm.resolve("a"), 2, CHUNK);
      SpongeServerAddress b = remote.addServer("b", rig.shm.resolve("b"), 2, CHUNK);
      try (SpongeFileSystem fs = rig.open(remote)) {
        SharedMemoryPool pool = fs.localPool().orElseThrow();
        byte[] data = SpongeTestRig.randomBytes(10 * CHUNK + 100, 1);
        SpongeFile f = fs.create("placement");
        SpongeTestRig.write(f, data);

        List<StoredChunk> chunks = f.chunks();
        List<Tier> tiers = chunks.stream().map(StoredChunk::tier).collect(Collectors.toList());
        // The local sponge is synchronous, so it takes the first chunks. Beyond it, chunks are
        // pipelined: a chunk a
        // remote server refuses retries on the next server or falls back to disk when the refusal
        // arrives, which can
        // be after a later chunk's retry succeeded. Each chunk still tries remote memory before
        // disk, so the proof
        // of order is the count per tier and that every remote sponge is full when disk is used.
        assertEquals(
            List.of(Tier.LOCAL_MEMORY, Tier.LOCAL_MEMORY, Tier.LOCAL_MEMORY), tiers.subList(0, 3));
        assertEquals(
            Map.of(Tier.REMOTE_MEMORY, 4L, Tier.LOCAL_DISK, 4L),
            tiers.subList(3, tiers.size()).stream()
                .collect(Collectors.groupingBy(t -> t, Collectors.counting())),
            "chunks 3..10 by tier: " + tiers);

        // Local sponge: the pool's metadata names this process as owner of exactly those chunks.
        Set<Integer> localIdx =
            chunks.stream()
                .filter(c -> c instanceof StoredChunk.Local)
                .map(c -> ((StoredChunk.Local) c).index())
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Map.of(), withoutOwner(pool.owners(), fs.owner()));
        assertEquals(localIdx, new TreeSet<>(pool.owners().keySet()));
        assertEquals(0, pool.freeChunks());
        // Remote: both servers are filled, two chunks each.
        Map<SpongeServerAddress, Long> perServer =
            chunks.stream()
                .filter(c -> c instanceof StoredChunk.Remote)
                .collect(
                    Collectors.groupingBy(
                        c -> ((StoredChunk.Remote) c).handle().server(), Collectors.counting()));
        assertEquals(Map.of(a, 2L, b, 2L), perServer);
        assertEquals(0, remote.pool(a).freeChunks());
        assertEquals(0, remote.pool(b).freeChunks());
        // Disk: one file holding exactly the disk chunks, with the right bytes.
        List<Path> diskFiles;
        try (Stream<Path> s = Files.list(rig.diskDir)) {
          diskFiles = s.collect(Collectors.toList());
        }
        assertEquals(1, diskFiles.size());
        byte[] onDisk = Files.readAllBytes(diskFiles.get(0));
        // Each disk chunk holds its bytes at the offset it records, and together they tile the
        // file. Their order in
        // the file may differ from the file's chunk order, for the reason above.
        Set<Long> offsets = new TreeSet<>();
        Map<Tier, Long> bytesPerTier = new java.util.EnumMap<>(Tier.class);
        for (int i = 0; i < chunks.size(); i++) {
          int from = i * CHUNK;
          byte[] expectedBytes =
              java.util.Arrays.copyOfRange(data, from, Math.min(data.length, from + CHUNK));
          bytesPerTier.merge(chunks.get(i).tier(), (long) expectedBytes.length, Long::sum);
          if (!(chunks.get(i) instanceof StoredChunk.Disk d)) {
            continue;
          }
          assertEquals(diskFiles.get(0), d.file());
          assertEquals(expectedBytes.length, d.length(), "length of disk chunk " + i);
          assertArrayEquals(
              expectedBytes,
              java.util.Arrays.copyOfRange(onDisk, (int) d.offset(), (int) d.offset() + d.length()),
              "bytes of disk chunk " + i + " at offset " + d.offset());
          offsets.add(d.offset());
        }
        assertEquals(4, offsets.size(), "disk chunks never overlap: " + offsets);
        assertEquals(
            onDisk.length,
            (long) bytesPerTier.get(Tier.LOCAL_DISK),
            "the disk chunks fill the file, no gap");

        assertEquals(3L * CHUNK, fs.metrics().bytesWritten(Tier.LOCAL_MEMORY));
        assertEquals(
            bytesPerTier.get(Tier.REMOTE_MEMORY), fs.metrics().bytesWritten(Tier.REMOTE_MEMORY));
        assertEquals(bytesPerTier.get(Tier.LOCAL_DISK), fs.metrics().bytesWritten(Tier.LOCAL_DISK));
        assertEquals(
            8,
            fs.metrics().fallbacks(Tier.LOCAL_MEMORY),
            "chunks 3..10 found the local sponge full");
        assertEquals(
            4, fs.metrics().fallbacks(Tier.REMOTE_MEMORY), "four chunks found no remote room");

        assertArrayEquals(data, SpongeTestRig.readAll(f));
        assertEquals(bytesPerTier.get(Tier.LOCAL_DISK), fs.metrics().bytesRead(Tier.LOCAL_DISK));

        f.delete();
        assertEquals(pool.chunkCount(), pool.freeChunks());
        assertEquals(2, remote.pool(a).freeChunks());
        assertEquals(2, remote.pool(b).freeChunks());
        assertFalse(Files.exists(diskFiles.get(0)));
        assertEquals(3, fs.metrics().chunksFreed(Tier.LOCAL_MEMORY));
        assertEquals(4, fs.metrics().chunksFreed(Tier.REMOTE_MEMORY));
        assertEquals(4, fs.metrics().chunksFreed(Tier.LOCAL_DISK));
      }
    }
  }

  @Test
  void fallsBackToDfsWhenTheDiskFailsAndAppendsToOneDfsFile() throws Exception {
    try (SpongeTestRig rig = new SpongeTestRig(CHUNK, 1)) {
      // A regular file where the disk dir should be: creating the spill file fails like a dead
      // disk.
      Files.createDirectories(rig.work);
      Files.writeString(rig.diskDir, "not a directory");
      try (SpongeFileSystem fs = rig.open(null)) {
        byte[] data = SpongeTestRig.randomBytes(5 * CHUNK + 3, 2);
        SpongeFile f = fs.create("dfs");
        SpongeTestRig.write(f, data);
        assertEquals(
            List.of(Tier.LOCAL_MEMORY, Tier.DFS, Tier.DFS, Tier.DFS, Tier.DFS, Tier.DFS),
            f.chunks().stream().map(StoredChunk::tier).collect(Collectors.toList()));
        assertEquals(
            1, fs.metrics().errors(Tier.LOCAL_DISK), "the disk is tried once, then avoided");
        List<Path> dfsFiles;
        try (Stream<Path> s = Files.list(rig.dfsDir)) {
          dfsFiles =
              s.filter(p -> !p.getFileName().toString().startsWith("."))
                  .collect(Collectors.toList());
        }
        assertEquals(1, dfsFiles.size(), "all DFS chunks go to one file: " + dfsFiles);
        assertEquals(4L * CHUNK + 3, Files.size(dfsFiles.get(0)));
        assertArrayEquals(data, SpongeTestRig.readAll(f));
        f.delete();
        assertFalse(Files.exists(dfsFiles.get(0)));
        assertEquals(5, fs.metrics().chunksFreed(Tier.DFS));
      }
    }
  }

  @Test
  void staleServersAreSkippedAndNotRetriedWhileUsedOnesArePreferred() throws Exception {
    try (SpongeTestRig rig = new SpongeTestRig(CHUNK, 1);
        PoolBackedRemoteMemory remote = new PoolBackedRemoteMemory()) {
      rig.conf.set(SpongeConf.LOCAL_ENABLED.name(), "false");
      // The paper's free list: "used ones are preferred" is its packing (batch sampling spreads
      // on purpose; BatchSamplingPolicyTest covers it).
      rig.conf.set(SpongeConf.PLACEMENT_POLICY.name(), "free-list");
      SpongeServerAddress a = remote.addServer("a", rig.shm.resolve("a"), 1, CHUNK);
      SpongeServerAddress b = remote.addServer("b", rig.shm.resolve("b"), 2, CHUNK);
      SpongeServerAddress c = remote.addServer("c", rig.shm.resolve("c"), 4, CHUNK);
      int hog =
          remote
              .pool(a)
              .allocate(new dev.levee.sponge.local.ChunkOwner(1, "someone-else"))
              .orElseThrow();
      remote.advertise(List.of(a, b, c));
      try (SpongeFileSystem fs = rig.open(remote)) {
        SpongeFile f = fs.create("stale");
        byte[] data = SpongeTestRig.randomBytes(5 * CHUNK, 3);
        try (var out = f.output()) {
          out.write(data, 0, CHUNK);
          out.write(data, CHUNK, CHUNK);
          // Wait for both background stores, then free a chunk on a: the file found a full and must
          // not go back to
          // it (a stale entry stays stale for this file), while it keeps using b, which it already
          // uses.
          long deadline = System.nanoTime() + 10_000_000_000L;
          while (f.chunks().size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(5);
          }
          assertEquals(2, f.chunks().size());
          remote.pool(a).free(hog, new dev.levee.sponge.local.ChunkOwner(1, "someone-else"));
          out.write(data, 2 * CHUNK, 3 * CHUNK);
        }
        List<SpongeServerAddress> used =
            f.chunks().stream()
                .map(ch -> ((StoredChunk.Remote) ch).handle().server())
                .collect(Collectors.toList());
        assertEquals(List.of(b, b, c, c, c), used);
        assertEquals(
            2,
            fs.metrics().staleRemoteServers(),
            "a refused once (never asked again), then b once full");
        assertArrayEquals(data, SpongeTestRig.readAll(f));
      }
    }
  }

  private static Map<Integer, dev.levee.sponge.local.ChunkOwner> withoutOwner(
      Map<Integer, dev.levee.sponge.local.ChunkOwner> owners,
      dev.levee.sponge.local.ChunkOwner me) {
    Map<Integer, dev.levee.sponge.local.ChunkOwner> others = new java.util.HashMap<>(owners);
    others.values().removeIf(me::equals);
    return others;
  }
}
