package dev.levee.it.hadoop;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;

/**
 * A minimal server-style aux service, like a plugin's per-node server: it listens on a loopback
 * port from start to stop and answers every connection with the local dirs of the NodeManager that
 * configured it, so a test can tell the instances of different NodeManagers apart over the wire.
 */
public class ProbeAuxService extends AuxiliaryService {

  public static final String NAME = "levee_probe";

  private String nodeLocalDirs;
  private ServerSocket server;
  private Thread acceptor;

  public ProbeAuxService() {
    super(NAME);
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    nodeLocalDirs = conf.get(YarnConfiguration.NM_LOCAL_DIRS);
    super.serviceInit(conf);
  }

  @Override
  protected void serviceStart() throws Exception {
    server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
    acceptor = new Thread(this::serve, NAME + "-" + server.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    if (server != null) {
      server.close();
      acceptor.join(5_000);
    }
    super.serviceStop();
  }

  public int port() {
    return server.getLocalPort();
  }

  private void serve() {
    byte[] reply = (nodeLocalDirs + "\n").getBytes(StandardCharsets.UTF_8);
    while (!server.isClosed()) {
      try (Socket socket = server.accept();
          OutputStream out = socket.getOutputStream()) {
        out.write(reply);
      } catch (IOException e) {
        // accept() fails once the socket is closed on stop; a failed reply only fails that client.
      }
    }
  }

  @Override
  public ByteBuffer getMetaData() {
    return ByteBuffer.allocate(Integer.BYTES).putInt(0, port());
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {}

  @Override
  public void stopApplication(ApplicationTerminationContext context) {}
}
