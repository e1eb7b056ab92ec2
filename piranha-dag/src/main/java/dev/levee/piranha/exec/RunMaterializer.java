package dev.levee.piranha.exec;

import dev.levee.piranha.PiranhaConf;
import dev.levee.piranha.exchange.Run;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;

/**
 * The paper's "checkpointing" configurations: before a parent pushes a run, the run is written to
 * stable storage and pushed from there, as MapReduce materializes map output (to the local disk)
 * and job output (to the distributed file system) between stages. With {@code none} runs are pushed
 * straight from memory.
 */
final class RunMaterializer {
  private final PiranhaConf.Checkpoint mode;
  private final Path localDir;
  private final FileSystem dfs;
  private final org.apache.hadoop.fs.Path dfsDir;
  private int sequence;

  RunMaterializer(
      PiranhaConf.Checkpoint mode,
      Path localDir,
      FileSystem dfs,
      org.apache.hadoop.fs.Path dfsDir) {
    this.mode = mode;
    this.localDir = localDir;
    this.dfs = dfs;
    this.dfsDir = dfsDir;
  }

  /** The run to push: {@code run} itself, or its stored copy. */
  Run materialize(Run run, String name) throws IOException {
    switch (mode) {
      case NONE:
        return run;
      case LOCAL:
        {
          Files.createDirectories(localDir);
          Path file = localDir.resolve(name + "-" + (sequence++) + ".run");
          try (FileChannel ch =
                  FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
              OutputStream out = Channels.newOutputStream(ch)) {
            writeTo(run, out);
            out.flush();
            ch.force(true);
          }
          return Run.inFile(file, run.bytes(), run.records(), run.sorted());
        }
      case DFS:
        {
          org.apache.hadoop.fs.Path file =
              new org.apache.hadoop.fs.Path(dfsDir, name + "-" + (sequence++) + ".run");
          try (FSDataOutputStream out = dfs.create(file, false)) {
            writeTo(run, out);
            out.hsync();
          }
          return Run.stored(
              () -> dfs.open(file, 64 << 10),
              file.toString(),
              run.bytes(),
              run.records(),
              run.sorted());
        }
      default:
        throw new IllegalStateException("checkpoint mode " + mode);
    }
  }

  /** Deletes a stored copy once pushed (the run's data is held by the child now). */
  void release(Run stored) throws IOException {
    if (mode == PiranhaConf.Checkpoint.LOCAL) {
      Files.deleteIfExists(stored.file());
    }
    // DFS copies stay until the runner removes the run's directory: they are the checkpoint.
  }

  private static void writeTo(Run run, OutputStream out) throws IOException {
    try (var in = run.open()) {
      in.transferTo(out);
    }
  }
}
