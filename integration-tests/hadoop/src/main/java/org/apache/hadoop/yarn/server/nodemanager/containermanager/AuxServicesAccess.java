package org.apache.hadoop.yarn.server.nodemanager.containermanager;

import java.util.List;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;

/**
 * Shim: {@link AuxServices#getServices()} is package-private, and a test needs the live aux service
 * instances of one NodeManager (to talk to a plugin's server on that node, or to check it stopped
 * with its node).
 */
public final class AuxServicesAccess {

  private AuxServicesAccess() {}

  public static List<AuxiliaryService> services(AuxServices auxServices) {
    // The set only changes on a manifest reload, which mini clusters do not use.
    return List.copyOf(auxServices.getServices());
  }
}
