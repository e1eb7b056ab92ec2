package dev.levee.sponge.server;

import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;

/**
 * The sponge server as a standalone process, for nodes without a NodeManager:
 *
 * <pre>
 *   java -cp levee-spongefiles.jar:$(hadoop classpath) dev.levee.sponge.server.SpongeServerDaemon \
 *       -Dlevee.sponge.zookeeper.quorum=zk1:2181 -Dlevee.sponge.local.pool.size=8g
 * </pre>
 *
 * Reads {@code core-site.xml} from the classpath, then {@code -Dkey=value} arguments. Prints one
 * line {@code sponge-server listening <host:port> pid <pid>} when ready, and stops cleanly on
 * SIGTERM.
 */
public final class SpongeServerDaemon {
  private SpongeServerDaemon() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    for (String arg : args) {
      if (!arg.startsWith("-D") || arg.indexOf('=') < 3) {
        System.err.println(
            "usage: SpongeServerDaemon [-Dlevee.sponge.key=value ...]; bad argument: " + arg);
        System.exit(2);
      }
      int eq = arg.indexOf('=');
      conf.set(arg.substring(2, eq), arg.substring(eq + 1));
    }
    SpongeServerConfig cfg;
    try {
      SpongeConf.validate(conf);
      cfg = SpongeServerConfig.from(conf);
    } catch (IllegalArgumentException e) {
      System.err.println("sponge server not started: " + e.getMessage());
      System.exit(2);
      return;
    }
    SpongeService node = SpongeService.start(cfg);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  node.close();
                  stopped.countDown();
                },
                "sponge-shutdown"));
    System.out.println(
        "sponge-server listening " + node.nodeName() + " pid " + ProcessHandle.current().pid());
    System.out.flush();
    stopped.await();
  }
}
