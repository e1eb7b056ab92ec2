package dev.levee.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class AuxServiceOnEveryNodeManagerTest {

  @RegisterExtension static final SharedClusterExtension CLUSTER = TestClusters.SHARED;

  @Test
  void yarnSiteAuxServiceRunsOnEachNodeManagerBesideTheShuffle() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    assertEquals(2, cluster.nodeManagerCount());
    Set<ProbeAuxService> instances = new HashSet<>();
    Set<String> nodeDirs = new HashSet<>();
    for (int nm = 0; nm < cluster.nodeManagerCount(); nm++) {
      Configuration nmConf = cluster.nodeManager(nm).getConfig();
      assertEquals(
          Set.of("mapreduce_shuffle", ProbeAuxService.NAME),
          Set.copyOf(nmConf.getTrimmedStringCollection(YarnConfiguration.NM_AUX_SERVICES)),
          "aux services of NodeManager " + nm);

      ProbeAuxService probe = cluster.auxService(nm, ProbeAuxService.class);
      assertEquals(Service.STATE.STARTED, probe.getServiceState(), "probe on NodeManager " + nm);
      // Over the wire: the service is really listening, and it was configured by this NodeManager.
      String nmLocalDirs = nmConf.get(YarnConfiguration.NM_LOCAL_DIRS);
      assertEquals(nmLocalDirs, ask(probe.port()), "probe on NodeManager " + nm + " answered");
      instances.add(probe);
      nodeDirs.add(nmLocalDirs);
    }
    assertEquals(2, instances.size(), "one probe instance per NodeManager");
    assertEquals(2, nodeDirs.size(), "NodeManagers have separate local dirs");
  }

  @Test
  void auxServiceWithoutClassIsRejectedBeforeAnythingStarts() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                MiniMapReduceCluster.builder()
                    .set("yarn.nodemanager.aux-services", "sponge")
                    .start());
    assertTrue(
        e.getMessage().contains("yarn.nodemanager.aux-services.sponge.class"), e.getMessage());
  }

  @Test
  void auxServiceClassThatIsNotAnAuxServiceIsRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                MiniMapReduceCluster.builder()
                    .set("yarn.nodemanager.aux-services", "sponge")
                    .set("yarn.nodemanager.aux-services.sponge.class", String.class.getName())
                    .start());
    assertTrue(e.getMessage().contains("sponge.class=java.lang.String"), e.getMessage());
    assertNotEquals(-1, e.getMessage().indexOf("AuxiliaryService"), e.getMessage());
  }

  private static String ask(int port) throws Exception {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        BufferedReader in =
            new BufferedReader(
                new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))) {
      return in.readLine();
    }
  }
}
