package dev.levee.sponge.testing;

import dev.levee.sponge.SpongeFile;
import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.config.SpongeConf;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;

/**
 * Directories and configuration for SpongeFile tests: a tmpfs pool, a local disk dir and a file://
 * "DFS" dir.
 */
public final class SpongeTestRig implements AutoCloseable {
  public final Path shm;
  public final Path work;
  public final Path poolDir;
  public final Path diskDir;
  public final Path dfsDir;
  public final Configuration conf = new Configuration(false);

  public SpongeTestRig(int chunkSize, int poolChunks) throws IOException {
    shm = TempDirs.newShmDir("rig");
    work =
        Files.createTempDirectory(
            Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath(), "sponge-rig");
    poolDir = shm.resolve("local-pool");
    diskDir = work.resolve("disk");
    dfsDir = work.resolve("dfs");
    conf.set(SpongeConf.CHUNK_SIZE.name(), Integer.toString(chunkSize));
    conf.set(SpongeConf.LOCAL_POOL_DIR.name(), poolDir.toString());
    conf.set(SpongeConf.LOCAL_POOL_SIZE.name(), Long.toString((long) chunkSize * poolChunks));
    conf.set(SpongeConf.DISK_DIRS.name(), diskDir.toString());
    conf.set(SpongeConf.DFS_DIR.name(), dfsDir.toUri().toString());
    conf.set(SpongeConf.OWNER_HOST.name(), "test-host");
    conf.set("fs.defaultFS", "file:///");
  }

  public SpongeFileSystem open(PoolBackedRemoteMemory remote) throws IOException {
    return SpongeFileSystem.open(conf, remote);
  }

  public static byte[] randomBytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** Writes {@code data} in uneven pieces (so chunk boundaries fall inside writes) and closes. */
  public static void write(SpongeFile f, byte[] data) throws IOException {
    Random r = new Random(data.length);
    try (OutputStream out = f.output()) {
      int off = 0;
      while (off < data.length) {
        if (r.nextInt(10) == 0) {
          out.write(data[off++]);
          continue;
        }
        int n = Math.min(data.length - off, 1 + r.nextInt(100_000));
        out.write(data, off, n);
        off += n;
      }
    }
  }

  public static byte[] readAll(SpongeFile f) throws IOException {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    Random r = new Random(7);
    try (InputStream in = f.input()) {
      byte[] buf = new byte[70_001];
      while (true) {
        if (r.nextInt(10) == 0) {
          int b = in.read();
          if (b < 0) {
            break;
          }
          bos.write(b);
          continue;
        }
        int n = in.read(buf, 0, 1 + r.nextInt(buf.length - 1));
        if (n < 0) {
          break;
        }
        bos.write(buf, 0, n);
      }
    }
    return bos.toByteArray();
  }

  @Override
  public void close() {
    TempDirs.deleteRecursively(shm);
    TempDirs.deleteRecursively(work);
  }
}
