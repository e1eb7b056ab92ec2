package dev.levee.piranha.pig;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a Pig script the way {@code pig -x mapreduce} does, with Piranha deciding per script:
 *
 * <pre>
 * hadoop jar piranha-dag.jar dev.levee.piranha.pig.PiranhaPig [pig options] script.pig
 * # or, with piranha-dag.jar on PIG_CLASSPATH:
 * pig -x piranha [pig options] script.pig
 * </pre>
 *
 * Every option Pig's command line takes ({@code -p key=value}, {@code -param_file}, {@code -D...})
 * works; {@code -x} is set to {@code piranha}.
 */
public final class PiranhaPig {
  private PiranhaPig() {}

  public static void main(String[] args) {
    List<String> all = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("-x") || args[i].equals("-exectype")) {
        i++; // Piranha's own mode replaces whatever was asked
        continue;
      }
      all.add(args[i]);
    }
    all.add(0, PiranhaExecType.NAME.toLowerCase(java.util.Locale.ROOT));
    all.add(0, "-x");
    org.apache.pig.Main.main(all.toArray(new String[0]));
  }
}
