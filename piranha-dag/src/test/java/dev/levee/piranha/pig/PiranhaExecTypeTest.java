package dev.levee.piranha.pig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.Properties;
import org.apache.pig.ExecType;
import org.apache.pig.ExecTypeProvider;
import org.apache.pig.impl.PigContext;
import org.junit.jupiter.api.Test;

/**
 * {@code -x piranha} as Pig resolves it: by name, through its service lookup. Pig swaps any
 * subclass of its MapReduce exec type for its own singleton there, which once made every {@code pig
 * -x piranha} script run on stock Pig without a word (seen on the container tier).
 */
class PiranhaExecTypeTest {
  @Test
  void pigsLookupByNameGivesPiranhasEngine() throws Exception {
    ExecType byName = ExecTypeProvider.fromString("piranha");
    assertInstanceOf(PiranhaExecType.class, byName, "Pig picked " + byName);
    assertFalse(byName.isLocal(), "a cluster mode");
    PigContext context = new PigContext(byName, new Properties());
    assertInstanceOf(PiranhaExecutionEngine.class, context.getExecutionEngine());
    assertEquals("PIRANHA", context.getProperties().getProperty("exectype"));
  }

  @Test
  void otherNamesAreNotPiranhas() throws Exception {
    Properties mapreduce = new Properties();
    mapreduce.setProperty("exectype", "mapreduce");
    assertFalse(new PiranhaExecType().accepts(mapreduce));
    assertEquals(ExecType.MAPREDUCE, ExecTypeProvider.fromString("mapreduce"));
  }
}
