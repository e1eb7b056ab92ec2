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
 *
 * <p>Only the sponge root and what lies under it are the servers' alone. Its ancestors ({@code
 * /levee} under the default root) are shared with the other Levee plugins and anyone else on the
 * ensemble: when the servers create them, everyone may read them and create under them (Piranha's
 * {@code /levee/piranha}), and nobody but the servers may delete, rewrite or re-permission them. An
 * earlier version locked them like the root, so that Piranha's first run on a cluster with
 * SpongeFiles failed with {@code NoAuth} (found on the container tier); {@link #secure} opens them
 * again.
 */
public final class ZooKeeperAcl implements ACLProvider {
  public static final String SCHEME = "digest";
  public static final String USER = "levee-sponge";
  private static final byte[] CONTEXT = "levee-sponge-zookeeper-1".getBytes(StandardCharsets.UTF_8);

  private final String password;
  private final String root;
  private final List<ACL> acl;
  private final List<ACL> sharedAncestorAcl;

  private ZooKeeperAcl(String password, String root) {
    this.password = password;
    this.root = root;
    Id servers = new Id(SCHEME, digestId(USER, password));
    this.acl = aclOf(servers, ZooDefs.Perms.READ);
    this.sharedAncestorAcl = aclOf(servers, ZooDefs.Perms.READ | ZooDefs.Perms.CREATE);
  }

  // Not List.of: ZooKeeper's validateACL asks contains(null), which immutable lists reject.
  private static List<ACL> aclOf(Id servers, int everyone) {
    return Collections.unmodifiableList(
        new ArrayList<>(
            List.of(
                new ACL(ZooDefs.Perms.ALL, servers),
                new ACL(everyone, ZooDefs.Ids.ANYONE_ID_UNSAFE))));
  }

  /** The ACL of the servers that hold {@code clusterSecret}, for the sponge root {@code root}. */
  public static ZooKeeperAcl fromClusterSecret(byte[] clusterSecret, String root) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(clusterSecret, "HmacSHA256"));
      return new ZooKeeperAcl(Base64.getEncoder().encodeToString(mac.doFinal(CONTEXT)), root);
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

  /** The servers' ACL at and under the root; the shared one on its ancestors. */
  @Override
  public List<ACL> getAclForPath(String path) {
    return isAncestorOfRoot(path) ? sharedAncestorAcl : acl;
  }

  private boolean isAncestorOfRoot(String path) {
    String p =
        path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
    return !p.equals(root) && (p.equals("/") || root.startsWith(p + "/"));
  }

  /**
   * Creates the root and the servers' parent with this ACL, and tightens them if an earlier,
   * unauthenticated version left them writable by anyone (the ACL of a znode is kept when its
   * creator upgrades). Nodes under them are created by the servers, with this ACL.
   */
  public void secure(CuratorFramework zk, SpongeZnodes znodes) throws Exception {
    openAncestorsLockedEarlier(zk);
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

  /**
   * The root's ancestors that carry exactly the servers' own ACL were locked by an earlier version
   * (no one else can have given them that ACL without the secret): they get the shared one.
   */
  private void openAncestorsLockedEarlier(CuratorFramework zk) throws Exception {
    for (String path = parentOf(root); !path.equals("/"); path = parentOf(path)) {
      if (zk.checkExists().forPath(path) != null && acl.equals(zk.getACL().forPath(path))) {
        zk.setACL().withACL(sharedAncestorAcl).forPath(path);
      }
    }
  }

  private static String parentOf(String path) {
    int slash = path.lastIndexOf('/');
    return slash <= 0 ? "/" : path.substring(0, slash);
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
