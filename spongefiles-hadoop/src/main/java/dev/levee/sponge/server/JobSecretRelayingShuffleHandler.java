package dev.levee.sponge.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's ShuffleHandler, unchanged, that also leaves each application's job secret for the node's
 * sponge server ({@link JobSecretDrop}). Only the {@code mapreduce_shuffle} service receives the
 * job's shuffle token from the ApplicationMaster, so on a cluster where sponge servers require
 * authentication ({@code levee.sponge.server.auth.required}) this class takes the ShuffleHandler's
 * place:
 *
 * <pre>
 * yarn.nodemanager.aux-services.mapreduce_shuffle.class =
 *     dev.levee.sponge.server.JobSecretRelayingShuffleHandler
 * </pre>
 */
public class JobSecretRelayingShuffleHandler extends ShuffleHandler {
  private static final Logger LOG = LoggerFactory.getLogger(JobSecretRelayingShuffleHandler.class);

  private JobSecretDrop drop;

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    drop =
        new JobSecretDrop(
            SpongeAuxService.localDirs(conf.getTrimmedStrings(YarnConfiguration.NM_LOCAL_DIRS)));
    super.serviceInit(conf);
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    String app = context.getApplicationId().toString();
    ByteBuffer data = context.getApplicationDataForService();
    Optional<byte[]> secret = JobTokenServiceData.secret(data == null ? null : data.duplicate());
    super.initializeApplication(context);
    if (secret.isEmpty()) {
      return; // not a MapReduce application, or no token: nothing to pass on
    }
    try {
      drop.put(app, secret.get());
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "cannot leave the job secret of {} for the sponge server; its tasks will not"
              + " authenticate there: {}",
          app,
          e.toString());
    }
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    try {
      super.stopApplication(context);
    } finally {
      drop.remove(context.getApplicationId().toString());
    }
  }
}
