package dev.levee.sponge.hadoop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.client.RemoteMemory;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClosingRemoteMemoryTest {
  /**
   * A task's remote memory is a ClosingRemoteMemory around the real client; an interface default it
   * does not override silently replaces the client's own behaviour (storeAsync's default is
   * synchronous, which made every remote chunk of a YARN task wait a full round trip).
   */
  @Test
  void forwardsEveryMethodOfTheClientIncludingTheDefaultOnes() {
    List<String> missing = new ArrayList<>();
    for (Method m : RemoteMemory.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      try {
        Method own =
            ClosingRemoteMemory.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
        if (own.isSynthetic() || own.isBridge()) {
          missing.add(m.getName());
        }
      } catch (NoSuchMethodException e) {
        missing.add(m.getName());
      }
    }
    assertTrue(missing.isEmpty(), "ClosingRemoteMemory does not forward " + missing);
  }
}
