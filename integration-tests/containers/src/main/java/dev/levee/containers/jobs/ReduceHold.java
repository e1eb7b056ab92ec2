package dev.levee.containers.jobs;

import dev.levee.it.sponge.SkewedShuffleJob;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The client's side of {@link SkewedShuffleJob#REDUCE_HOLD_DIR}, run in the client container:
 *
 * <ul>
 *   <li>{@code ReduceHold await <dir> <seconds>} prints {@code READY\t<host>} once a held reducer
 *       is waiting (the host is the NodeManager container it runs in), or exits 1 at the deadline;
 *   <li>{@code ReduceHold release <dir>} lets it go on.
 * </ul>
 */
public final class ReduceHold {
  private ReduceHold() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2 || !(args[0].equals("await") || args[0].equals("release"))) {
      System.err.println("usage: ReduceHold await <dir> <seconds> | ReduceHold release <dir>");
      System.exit(2);
    }
    Path dir = new Path(args[1]);
    FileSystem fs = dir.getFileSystem(new Configuration());
    if (args[0].equals("release")) {
      fs.create(new Path(dir, "release"), true).close();
      return;
    }
    long deadline = System.nanoTime() + Long.parseLong(args[2]) * 1_000_000_000L;
    while (System.nanoTime() < deadline) {
      if (fs.exists(dir)) {
        for (FileStatus f : fs.listStatus(dir)) {
          String name = f.getPath().getName();
          if (name.startsWith("ready-")) {
            System.out.println("READY\t" + name.substring("ready-".length()));
            return;
          }
        }
      }
      Thread.sleep(250);
    }
    System.out.println("no held reducer in " + dir);
    System.exit(1);
  }
}
