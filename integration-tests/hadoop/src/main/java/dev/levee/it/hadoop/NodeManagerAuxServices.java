package dev.levee.it.hadoop;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;

/**
 * The NodeManager aux services of a mini cluster: MapReduce's shuffle plus whatever the user
 * declared the way yarn-site.xml does ({@code yarn.nodemanager.aux-services} and {@code
 * yarn.nodemanager.aux-services.<name>.class}).
 *
 * <p>Exists because {@code MiniMRYarnCluster} replaces the service list with just the shuffle,
 * which silently drops a plugin's server; here the user's list is kept and checked before any
 * daemon starts, so a typo fails with the key and value instead of a NodeManager that never comes
 * up.
 */
final class NodeManagerAuxServices {

  static final String SHUFFLE = ShuffleHandler.MAPREDUCE_SHUFFLE_SERVICEID;

  /**
   * The name rule the NodeManager applies (AuxServices), checked early to name the offending key.
   */
  private static final Pattern SERVICE_NAME = Pattern.compile("^[A-Za-z_]+[A-Za-z0-9_]*$");

  private NodeManagerAuxServices() {}

  static String classKey(String service) {
    return String.format(YarnConfiguration.NM_AUX_SERVICE_FMT, service);
  }

  /**
   * Writes the merged service list into {@code conf}: the shuffle first, then the user's services
   * in their order. A user may replace the shuffle's class; every other service must name a
   * loadable {@link AuxiliaryService} unless it comes from its own classpath ({@code
   * .classpath}/{@code .remote-classpath}).
   */
  static void configure(Configuration conf) {
    Set<String> services = new LinkedHashSet<>();
    services.add(SHUFFLE);
    services.addAll(conf.getTrimmedStringCollection(YarnConfiguration.NM_AUX_SERVICES));
    for (String service : services) {
      validate(conf, service);
    }
    if (conf.get(classKey(SHUFFLE)) == null) {
      conf.setClass(classKey(SHUFFLE), ShuffleHandler.class, AuxiliaryService.class);
    }
    conf.setStrings(YarnConfiguration.NM_AUX_SERVICES, services.toArray(new String[0]));
  }

  private static void validate(Configuration conf, String service) {
    if (!SERVICE_NAME.matcher(service).matches()) {
      throw new IllegalArgumentException(
          YarnConfiguration.NM_AUX_SERVICES
              + " contains '"
              + service
              + "': a service name must match "
              + SERVICE_NAME.pattern()
              + " (letters, digits, '_'; no leading digit)");
    }
    if (service.equals(SHUFFLE) && conf.get(classKey(SHUFFLE)) == null) {
      return;
    }
    String key = classKey(service);
    String className = conf.getTrimmed(key);
    if (className == null || className.isEmpty()) {
      throw new IllegalArgumentException(
          YarnConfiguration.NM_AUX_SERVICES
              + " lists '"
              + service
              + "' but "
              + key
              + " is not set: give the fully qualified name of an "
              + AuxiliaryService.class.getName()
              + " subclass");
    }
    boolean ownClasspath =
        conf.get(key.replaceFirst("\\.class$", ".classpath")) != null
            || conf.get(key.replaceFirst("\\.class$", ".remote-classpath")) != null;
    if (ownClasspath) {
      return;
    }
    Class<?> type;
    try {
      type = conf.getClassByName(className);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException(
          key + "=" + className + ": class not found on the cluster's classpath", e);
    }
    if (!AuxiliaryService.class.isAssignableFrom(type)) {
      throw new IllegalArgumentException(
          key + "=" + className + ": not a subclass of " + AuxiliaryService.class.getName());
    }
  }
}
