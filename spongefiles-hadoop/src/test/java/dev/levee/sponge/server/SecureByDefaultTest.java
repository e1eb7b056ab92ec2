package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.testing.CapturedLog;
import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 28, item 1: a default install authenticates every connection, a NodeManager that could
 * never let tasks authenticate refuses to start saying what to set, and running without
 * authentication is an explicit setting that warns at start. Tasks follow their node's setting.
 */
@Timeout(60)
class SecureByDefaultTest {
  private static final String STOCK_SHUFFLE = "org.apache.hadoop.mapred.ShuffleHandler";

  private Path shm;
  private Path localDirs;
  private Path secret;

  @BeforeEach
  void setUp() throws IOException {
    shm = TempDirs.newShmDir("secure-default");
    localDirs = Files.createTempDirectory("secure-default-nm");
    Files.setPosixFilePermissions(localDirs, PosixFilePermissions.fromString("rwx------"));
    secret = TestNodes.secretFile(new byte[32]);
  }

  @AfterEach
  void tearDown() throws IOException {
    TempDirs.deleteRecursively(shm);
    TempDirs.deleteRecursively(localDirs);
    Files.deleteIfExists(secret);
  }

  /** A NodeManager's yarn-site as an operator writes it: nothing about authentication. */
  private Configuration yarnSite(String shuffleClass) {
    Configuration c = TestNodes.conf(shm, 8);
    c.unset(SpongeConf.AUTH_REQUIRED.name());
    c.set(SpongeConf.AUTH_SECRET_FILE.name(), secret.toString());
    c.set(YarnConfiguration.NM_LOCAL_DIRS, localDirs.resolve("nm").toString());
    if (shuffleClass != null) {
      c.set(NodeManagerAuthCheck.SHUFFLE_CLASS_KEY, shuffleClass);
    }
    return c;
  }

  @Test
  void authenticationIsOnWhenNothingIsSet() {
    assertTrue(SpongeServerConfig.from(new Configuration(false)).auth().required());
  }

  @Test
  void aNodeManagerWhoseShuffleCannotRelayJobSecretsRefusesToStartNamingBothWays() {
    for (String shuffle : new String[] {STOCK_SHUFFLE, null}) {
      SpongeAuxService aux = new SpongeAuxService();
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> aux.init(yarnSite(shuffle)));
      assertTrue(e.getMessage().contains(NodeManagerAuthCheck.SHUFFLE_CLASS_KEY), e.getMessage());
      assertTrue(
          e.getMessage().contains(JobSecretRelayingShuffleHandler.class.getName()), e.getMessage());
      assertTrue(e.getMessage().contains("auth.required=false"), e.getMessage());
      assertTrue(shuffle == null || e.getMessage().contains(shuffle), e.getMessage());
      aux.stop();
    }
  }

  @Test
  void withoutASecretFileTheServerRefusesToStartSayingHowToMakeOne() {
    Configuration c = yarnSite(JobSecretRelayingShuffleHandler.class.getName());
    c.unset(SpongeConf.AUTH_SECRET_FILE.name());
    SpongeAuxService aux = new SpongeAuxService();
    aux.init(c);
    RuntimeException e = assertThrows(RuntimeException.class, aux::start);
    String all = e + " " + e.getCause();
    assertTrue(all.contains(SpongeConf.AUTH_SECRET_FILE.name()), all);
    assertTrue(all.contains("/dev/urandom"), all);
    assertTrue(all.contains("auth.required=false"), all);
    aux.stop();
  }

  @Test
  void aDefaultNodeRefusesUnauthenticatedClientsAndItsTasksAuthenticate() throws IOException {
    SpongeAuxService aux = new SpongeAuxService();
    aux.init(yarnSite(JobSecretRelayingShuffleHandler.class.getName()));
    aux.start();
    try {
      SpongeServerAddress server = aux.node().address();
      try (SpongeClient client =
          TestNodes.client("application_1_0001", "127.0.0.1:1", List.of(server))) {
        IOException refused =
            assertThrows(
                IOException.class, () -> client.store(server, TestNodes.randomBytes(9, 1)));
        assertTrue(
            refused.toString().contains("requires an authenticated connection"),
            refused.toString());
      }
      // A job that says nothing, or even opts out, authenticates on this node: it follows the
      // node's descriptor.
      SpongeNodeDescriptor d =
          SpongeNodeDescriptor.readFrom(SpongeNodeDescriptor.in(localDirs.resolve("nm")));
      assertEquals(Boolean.TRUE, d.authRequired());
      Configuration job = new Configuration(false);
      job.set(SpongeConf.AUTH_REQUIRED.name(), "false");
      assertTrue(SpongeServerConfig.from(d.applyTo(job)).auth().required());
    } finally {
      aux.stop();
    }
  }

  @Test
  void runningWithoutAuthenticationIsExplicitWarnedAndFollowedByTasks() throws IOException {
    Configuration c = yarnSite(STOCK_SHUFFLE);
    c.set(SpongeConf.AUTH_REQUIRED.name(), "false");
    SpongeAuxService aux = new SpongeAuxService();
    try (CapturedLog log = CapturedLog.start()) {
      aux.init(c);
      aux.start();
      List<String> warnings = log.messages(Level.WARN, SpongeAuxService.class.getName());
      assertEquals(1, warnings.size(), warnings.toString());
      assertTrue(warnings.get(0).contains("WITHOUT authentication"), warnings.get(0));
      SpongeNodeDescriptor d =
          SpongeNodeDescriptor.readFrom(SpongeNodeDescriptor.in(localDirs.resolve("nm")));
      assertEquals(Boolean.FALSE, d.authRequired());
      // A task whose job says nothing (the default, true) connects as its node's server expects.
      assertFalse(SpongeServerConfig.from(d.applyTo(new Configuration(false))).auth().required());
    } finally {
      aux.stop();
    }
  }
}
