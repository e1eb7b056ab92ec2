package dev.levee.containers.jobs;

import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The seeded text a client job reads: {@code <dir>/in}, written once (a second job on the same
 * directory reads the same files). {@code <files>} files, one seed each ({@code seed + f}); file f
 * holds {@code lines} lines, or {@code lines * (f + 1)} when the files are to differ in size.
 */
record TextInput(Path dir, FileSystem fs, int files, int lines) {
  /** How one line's words are drawn. */
  interface Words {
    void line(Random random, StringBuilder line);
  }

  /** {@code <dir> <files> <lines-per-file>}, the first three arguments of every text job. */
  static TextInput of(Configuration conf, String[] args) throws IOException {
    Path dir = new Path(args[0]);
    return new TextInput(
        dir, dir.getFileSystem(conf), Integer.parseInt(args[1]), Integer.parseInt(args[2]));
  }

  /** {@code <dir>/<name>}, emptied: where a job of that name writes. */
  Path freshOutput(String name) throws IOException {
    Path output = new Path(dir, name);
    fs.delete(output, true);
    return output;
  }

  /** The input directory, written first when it is not there. */
  Path ensure(String prefix, long seed, boolean growing, Words words) throws IOException {
    Path input = new Path(dir, "in");
    if (fs.exists(input)) {
      return input;
    }
    for (int f = 0; f < files; f++) {
      Random random = new Random(seed + f);
      try (FSDataOutputStream out = fs.create(new Path(input, prefix + f + ".txt"), true)) {
        StringBuilder line = new StringBuilder();
        for (int l = 0; l < (growing ? lines * (f + 1) : lines); l++) {
          line.setLength(0);
          words.line(random, line);
          out.writeBytes(line.append('\n').toString());
        }
      }
    }
    return input;
  }
}
