package dev.levee.sponge.server;

import java.io.Closeable;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.yarn.api.ApplicationClientProtocol;
import org.apache.hadoop.yarn.api.protocolrecords.GetApplicationReportRequest;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.ClientRMProxy;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ResourceManager's word on whether an application has ended: what binds a cluster-derived
 * application secret to the application's lifetime on nodes where it never ran (issue 28).
 *
 * <p>An ended application (finished, failed, killed, or unknown to the ResourceManager, which
 * registers every application before any of its containers runs) stays ended, so that verdict is
 * final; "still running" is believed for {@code levee.sponge.server.auth.application-check-ms}, so
 * a node asks at most once per application in that time. When the ResourceManager cannot be asked
 * (a fail-over, an outage) the secret is believed (for that period too) and a warning logged:
 * refusing would take remote memory from every running job for the length of the outage, while
 * believing it leaves only the window a stolen derived secret already had. Asked with short connect
 * retries, so an outage costs one handshake per application and period some seconds (16 s was seen
 * against an unusable address in a mini cluster, past the 10 s handshake budget, so that handshake
 * is cut and retried), not the ResourceManager client's default quarter of an hour.
 */
public final class ResourceManagerApplications implements Predicate<String>, Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ResourceManagerApplications.class);
  private static final int MAX_REMEMBERED = 10_000;
  private static final Set<YarnApplicationState> ENDED =
      EnumSet.of(
          YarnApplicationState.FINISHED, YarnApplicationState.FAILED, YarnApplicationState.KILLED);

  private final Configuration conf;
  private final long runningTtlNanos;
  private final Map<String, Long> runningUntilNanos = new ConcurrentHashMap<>();
  private final ThrottledLog throttled = new ThrottledLog(LOG, 60, TimeUnit.SECONDS);
  private ApplicationClientProtocol rm;

  /**
   * @param conf the NodeManager's (it names the ResourceManager and how to log in to it)
   * @param runningTtlMillis how long "still running" is believed
   */
  public ResourceManagerApplications(Configuration conf, long runningTtlMillis) {
    this.runningTtlNanos = TimeUnit.MILLISECONDS.toNanos(runningTtlMillis);
    // Read at the first question, not now: the aux service starts before the NodeManager has
    // finished setting itself up.
    this.conf = conf;
  }

  /** Whether {@code applicationId} has ended cluster-wide. */
  @Override
  public boolean test(String applicationId) {
    ApplicationId id;
    try {
      id = ApplicationId.fromString(applicationId);
    } catch (IllegalArgumentException notYarn) {
      return true; // no YARN application runs under that name
    }
    Long until = runningUntilNanos.get(applicationId);
    if (until != null && until - System.nanoTime() > 0) {
      return false;
    }
    try {
      YarnApplicationState state =
          proxy()
              .getApplicationReport(GetApplicationReportRequest.newInstance(id))
              .getApplicationReport()
              .getYarnApplicationState();
      if (ENDED.contains(state)) {
        runningUntilNanos.remove(applicationId);
        LOG.info("{} has ended ({}): its derived secret is void here", applicationId, state);
        return true;
      }
      remember(applicationId);
      return false;
    } catch (ApplicationNotFoundException unknown) {
      LOG.info(
          "the ResourceManager does not know {}: its derived secret is void here", applicationId);
      return true;
    } catch (IOException | YarnException | RuntimeException e) {
      throttled.warn(
          "rm",
          "cannot ask the ResourceManager whether {} has ended ({}); believing its derived secret",
          applicationId,
          e.toString());
      // Believed for as long as a "running" answer, so an outage costs each application one slow
      // handshake per period here, not every handshake.
      remember(applicationId);
      return false;
    }
  }

  private void remember(String applicationId) {
    if (runningUntilNanos.size() >= MAX_REMEMBERED) {
      runningUntilNanos.clear();
    }
    runningUntilNanos.put(applicationId, System.nanoTime() + runningTtlNanos);
  }

  private synchronized ApplicationClientProtocol proxy() throws IOException {
    if (rm == null) {
      Configuration c = new Configuration(conf);
      c.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, 5_000);
      c.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, 500);
      c.setInt("ipc.client.connect.max.retries", 1);
      c.setInt("ipc.client.connect.timeout", 2_000);
      rm = ClientRMProxy.createRMProxy(c, ApplicationClientProtocol.class);
    }
    return rm;
  }

  @Override
  public synchronized void close() {
    if (rm != null) {
      RPC.stopProxy(rm);
      rm = null;
    }
  }
}
