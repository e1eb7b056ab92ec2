package dev.levee.it.sponge;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.discovery.StaticServerList;
import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.server.ResourceManagerApplications;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 28: a cluster-derived application secret never expired on nodes where the application never
 * ran. Each NodeManager's sponge now asks the ResourceManager: while a job runs its derived secret
 * opens every node's sponge; once the job has ended, no node's does (the cluster's nodes believe
 * "still running" for 1 s, {@code levee.sponge.server.auth.application-check-ms}).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DerivedSecretLifetimeOnYarnTest {
  @RegisterExtension static final SharedClusterExtension CLUSTER = SpongeCluster.SHARED;

  @Test
  void anEndedJobsDerivedSecretOpensNoNodesSponge() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    FileSystem fs = cluster.fileSystem();
    Path input = new Path("/it/sponge-lifetime/in");
    try (var out = fs.create(new Path(input, "part"))) {
      out.write("one line\n".getBytes(StandardCharsets.UTF_8));
    }
    Job job = Job.getInstance(cluster.clientConf(), "derived-secret-lifetime");
    job.setMapperClass(Mapper.class);
    job.setNumReduceTasks(0);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, new Path("/it/sponge-lifetime/out"));
    job.submit();
    String app = job.getJobID().toString().replaceFirst("^job_", "application_");

    byte[] clusterSecret =
        Files.readAllBytes(
            java.nio.file.Path.of(
                cluster.nodeManager(0).getConfig().get(SpongeConf.AUTH_SECRET_FILE.name())));
    byte[] derived = Handshake.derivedApplicationSecret(clusterSecret, app);
    List<SpongeServerAddress> servers = new ArrayList<>();
    for (int nm = 0; nm < SpongeCluster.NODE_MANAGERS; nm++) {
      servers.add(SpongeCluster.sponge(cluster, nm).node().address());
    }
    try (ResourceManagerApplications rm =
        new ResourceManagerApplications(cluster.clientConf(), 1_000)) {
      assertFalse(rm.test(app), "the ResourceManager knows the submitted job as running");
      for (SpongeServerAddress server : servers) {
        try (SpongeClient task = client(app, derived, server)) {
          RemoteChunk chunk = task.store(server, ByteBuffer.wrap(new byte[100])).orElseThrow();
          task.free(chunk);
        }
      }
      assertTrue(job.waitForCompletion(false), "the job succeeds");
      assertTrue(rm.test(app), "the ResourceManager reports the job ended");
      assertTrue(rm.test("application_1_9999"), "an application it never heard of never ran");
      assertTrue(rm.test("not-an-application"), "nor does a name YARN never gives");
    }
    Thread.sleep(1_500); // past the nodes' 1 s of believing the job still runs
    for (SpongeServerAddress server : servers) {
      try (SpongeClient late = client(app, derived, server)) {
        IOException refused =
            assertThrows(
                IOException.class,
                () -> late.store(server, ByteBuffer.wrap(new byte[100])),
                "the ended job's derived secret on " + server);
        assertTrue(refused.toString().contains("UNAUTHENTICATED"), refused.toString());
      }
    }
  }

  private static SpongeClient client(String app, byte[] secret, SpongeServerAddress server) {
    return new SpongeClient(
        ClientIdentity.ofCurrentProcess(app, "127.0.0.1", null),
        new StaticServerList(List.of(new ServerListEntry(server, 1, 1))),
        new ClientSettings(5_000, 30_000, SpongeCluster.CHUNK, 1)
            .withCredential(new Handshake.Credential(Handshake.Kind.APPLICATION, app, secret)));
  }
}
