package dev.levee.sponge.discovery;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;

/**
 * Who may write SpongeFiles' znodes: only sponge servers, which prove the cluster secret (the file
 * of {@code levee.sponge.auth.secret-file}) to ZooKeeper with the {@code digest} scheme; everyone
 * may read, because tasks read the tracker's list without a credential. Without this, any process
 * that reaches the quorum could register a fake server, which the tracker would rank like a real
 * one and tasks would send their spills to.
 *
 * <p>The digest password is derived from the cluster secret (HMAC-SHA256 with a fixed context), so
 * the secret itself never reaches ZooKeeper, and every server derives the same identity. Kerberos
 * clusters whose ZooKeeper requires SASL keep that: this adds an ACL, it does not replace the
 * session's authentication.
 */
public final class ZooKeeperAcl implements ACLProvider {
  public static final String SCHEME = "digest";
  public static final String USER = "levee-sponge";
  private static final byte[] CONTEXT = "levee-sponge-zookeeper-1".getBytes(StandardCharsets.UTF_8);

  private final String password;
  private final List<ACL> acl;

  private ZooKeeperAcl(String password) {
    this.password = password;
    // Not List.of: ZooKeeper's validateACL asks contains(null), which immutable lists reject.
    this.acl =
        Collections.unmodifiableList(
            new ArrayList<>(
                List.of(
                    new ACL(ZooDefs.Perms.ALL, new Id(SCHEME, digestId(USER, password))),
                    new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE))));
  }

  /** The ACL of the servers that hold {@code clusterSecret}. */
  public static ZooKeeperAcl fromClusterSecret(byte[] clusterSecret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(clusterSecret, "HmacSHA256"));
      return new ZooKeeperAcl(Base64.getEncoder().encodeToString(mac.doFinal(CONTEXT)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable in this JVM", e);
    }
  }

  /** What a session adds with {@code addAuthInfo} / Curator's {@code authorization}. */
  public byte[] authInfo() {
    return (USER + ":" + password).getBytes(StandardCharsets.UTF_8);
  }

  /** The ACL every SpongeFiles znode gets: servers may do anything, the world may read. */
  @Override
  public List<ACL> getDefaultAcl() {
    return acl;
  }

  @Override
  public List<ACL> getAclForPath(String path) {
    return acl;
  }

  /**
   * Creates the root and the servers' parent with this ACL, and tightens them if an earlier,
   * unauthenticated version left them writable by anyone (the ACL of a znode is kept when its
   * creator upgrades). Nodes under them are created by the servers, with this ACL.
   */
  public void secure(CuratorFramework zk, SpongeZnodes znodes) throws Exception {
    for (String path : List.of(znodes.root(), znodes.servers())) {
      try {
        zk.create().creatingParentsIfNeeded().withACL(acl).forPath(path);
      } catch (KeeperException.NodeExistsException exists) {
        tighten(zk, path);
      }
    }
    // The tracker's list and latch are created by the tracker (with this ACL); ones left by an
    // earlier version, or planted in advance, are tightened, not created: an empty list would not
    // decode.
    for (String path : List.of(znodes.freeServers(), znodes.trackerLatch())) {
      if (zk.checkExists().forPath(path) != null) {
        tighten(zk, path);
      }
    }
  }

  private void tighten(CuratorFramework zk, String path) throws Exception {
    if (!acl.equals(zk.getACL().forPath(path))) {
      zk.setACL().withACL(acl).forPath(path);
    }
  }

  /** ZooKeeper's digest id: {@code user:base64(sha1("user:password"))}. */
  static String digestId(String user, String password) {
    try {
      byte[] sha1 =
          MessageDigest.getInstance("SHA-1")
              .digest((user + ":" + password).getBytes(StandardCharsets.UTF_8));
      return user + ":" + Base64.getEncoder().encodeToString(sha1);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-1 is unavailable in this JVM", e);
    }
  }
}
