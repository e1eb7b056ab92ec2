package dev.levee.sponge.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Error messages are cut by UTF-8 bytes, not characters (issue 13, item 9: 400 non-ASCII characters
 * overflowed the 512-byte field and the server closed the connection without a reply).
 */
class PayloadStringTest {
  @Test
  void longNonAsciiMessagesFitTheFieldAndStayValidUtf8() {
    for (String unit : new String[] {"é", "語", "😀", "a"}) {
      String message = "no room for chunk: " + unit.repeat(600);
      String fitted = Payload.fitString(message);
      byte[] bytes = fitted.getBytes(StandardCharsets.UTF_8);
      assertTrue(bytes.length <= Payload.MAX_STRING_BYTES, unit + ": " + bytes.length);
      assertTrue(
          bytes.length > Payload.MAX_STRING_BYTES - 8, "cut close to the limit: " + bytes.length);
      assertTrue(
          fitted.endsWith("…") && message.startsWith(fitted.substring(0, fitted.length() - 1)));
      ByteBuffer field = ByteBuffer.allocate(Payload.stringBytes(fitted));
      Payload.putString(field, fitted); // would throw before the fix
      assertEquals(field.capacity(), field.position());
    }
  }

  @Test
  void shortMessagesAreUntouched() {
    assertEquals("quota exceeded: ü", Payload.fitString("quota exceeded: ü"));
  }
}
