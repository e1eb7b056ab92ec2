package dev.levee.dist;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/** Reads a sample config file the way its framework does, into key/value pairs. */
final class SampleConfigs {
  static final Path DIR = Path.of("src/conf");

  private SampleConfigs() {}

  static Map<String, String> read(Path file) throws IOException {
    String name = file.getFileName().toString();
    if (name.endsWith(".xml")) {
      return hadoopXml(file);
    }
    // spark-defaults.conf and pig.properties are java.util.Properties files (Spark's
    // Utils.getPropertiesFromFile and Pig's PropertiesUtil both load them so).
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file)) {
      p.load(r);
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (String k : p.stringPropertyNames()) {
      out.put(k, p.getProperty(k).trim());
    }
    return out;
  }

  /**
   * Hadoop's configuration format: {@code <configuration><property><name/><value/></property>}.
   * Parsed with the JDK's DOM parser (external entities off) so the test does not need Hadoop's
   * classpath; a malformed file fails here, naming it.
   */
  private static Map<String, String> hadoopXml(Path file) throws IOException {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      Element root = f.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
      if (!root.getTagName().equals("configuration")) {
        throw new IOException(file + ": root element is <" + root.getTagName() + ">");
      }
      Map<String, String> out = new LinkedHashMap<>();
      NodeList props = root.getElementsByTagName("property");
      for (int i = 0; i < props.getLength(); i++) {
        Element p = (Element) props.item(i);
        out.put(text(file, p, "name"), text(file, p, "value"));
      }
      return out;
    } catch (ParserConfigurationException | SAXException e) {
      throw new IOException(file + ": not a Hadoop configuration file: " + e.getMessage(), e);
    }
  }

  private static String text(Path file, Element property, String tag) throws IOException {
    NodeList n = property.getElementsByTagName(tag);
    if (n.getLength() != 1) {
      throw new IOException(file + ": a <property> needs exactly one <" + tag + ">");
    }
    return n.item(0).getTextContent().trim();
  }
}
