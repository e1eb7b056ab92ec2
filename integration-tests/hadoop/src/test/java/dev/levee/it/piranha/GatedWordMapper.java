package dev.levee.it.piranha;

import dev.levee.piranha.examples.TopWords;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The example's mapper, (word, 1) per token, with two test hooks: in the Piranha attempts listed in
 * {@value #GATED_ATTEMPTS} it waits until the file {@code <gate dir>/attempt-<k>} exists (so a test
 * can act while every task is up and waiting), and it counts where its own class and Piranha's were
 * loaded from (so a test can tell -libjars and the job jar from an inherited classpath).
 */
public final class GatedWordMapper extends TopWords.WordMapper {
  public static final String GATED_ATTEMPTS = "levee.it.gate.attempts";
  public static final String GATE_DIR = "levee.it.gate.dir";
  public static final String CLASSPATH_GROUP = "levee.it.classpath";
  public static final String PIRANHA_LOCALIZED = "piranha localized";
  public static final String JOB_LOCALIZED = "job classes localized";

  @Override
  protected void setup(Context context) throws IOException, InterruptedException {
    count(
        context,
        PIRANHA_LOCALIZED,
        Localized.forThisApplication("dev.levee.piranha.mr.PiranhaTaskMapper"));
    count(context, JOB_LOCALIZED, Localized.forThisApplication(GatedWordMapper.class.getName()));
    Configuration conf = context.getConfiguration();
    String attempt = conf.get("levee.piranha.internal.attempt", "");
    for (String gated : conf.getTrimmedStrings(GATED_ATTEMPTS)) {
      if (gated.equals(attempt)) {
        Path gate = new Path(conf.get(GATE_DIR), "attempt-" + attempt);
        FileSystem fs = gate.getFileSystem(conf);
        long deadline = System.currentTimeMillis() + 180_000;
        while (!fs.exists(gate)) {
          if (System.currentTimeMillis() > deadline) {
            throw new IOException("gate " + gate + " never opened");
          }
          context.progress();
          Thread.sleep(100);
        }
      }
    }
  }

  private static void count(Context context, String name, boolean yes) {
    context.getCounter(CLASSPATH_GROUP, name).increment(yes ? 1 : 0);
  }

  /** Whether a class came from a file YARN localized for this application. */
  static final class Localized {
    private Localized() {}

    static boolean forThisApplication(String className) {
      String localDirs = System.getenv("LOCAL_DIRS");
      if (localDirs == null) {
        return false;
      }
      try {
        java.security.CodeSource source =
            Class.forName(className).getProtectionDomain().getCodeSource();
        if (source == null) {
          return false;
        }
        java.nio.file.Path location =
            java.nio.file.Path.of(source.getLocation().toURI()).toRealPath();
        for (String dir : localDirs.split(",")) {
          // <nm-local-dir>/usercache/<user>/appcache/<app>: -libjars land in the user's file cache,
          // the job jar in the application's; both under usercache/<user>.
          java.nio.file.Path userCache =
              java.nio.file.Path.of(dir).toRealPath().getParent().getParent();
          if (location.startsWith(userCache)) {
            return true;
          }
        }
      } catch (Exception e) {
        return false;
      }
      return false;
    }
  }
}
