package dev.levee.leaky.value

import dev.levee.leaky.HeapProbeValue
import org.apache.spark.SparkConf
import org.apache.spark.serializer.{JavaSerializer, KryoSerializer, SerializerInstance}
import org.scalatest.funsuite.AnyFunSuite

/** Every value must come back equal and of the same class, whichever form the encoder chose. */
class ValueCodecSuite extends AnyFunSuite {

  private val serializers: Seq[(String, SerializerInstance)] = Seq(
    "java" -> new JavaSerializer(new SparkConf(false)).newInstance(),
    "kryo" -> new KryoSerializer(new SparkConf(false)).newInstance()
  )

  private val samples: Seq[Any] = Seq(
    null,
    "",
    "12345",
    "é-latin1-ÿ",
    "日本語",
    "lone \ud800 surrogate",
    "x" * 100000,
    0,
    -1,
    Int.MaxValue,
    Int.MinValue,
    0L,
    Long.MinValue,
    3.5,
    Double.NaN,
    -0.0,
    1.5f,
    Float.NegativeInfinity,
    true,
    false,
    7.toShort,
    (-3).toByte,
    'q',
    '\uffff',
    Array[Byte](1, 2, 3),
    Array.emptyByteArray,
    ("a", 1),
    (null, "b"),
    ("日本", 2.5),
    (1, 2), // (1, 2) is a specialized Tuple2 subclass
    (("nested", 1), 2),
    ("left", Array[Byte](9)), // have no compact form: fall back whole
    Seq(1, 2, 3),
    Some("x"),
    HeapProbeValue("probe"),
    BigDecimal("1.5"),
    Array(1, 2)
  )

  private def expectedTag(v: Any): Int = v match {
    case null           => ValueTag.Null
    case s: String      => if (s.forall(_ <= 0xff)) ValueTag.Latin1String else ValueTag.Utf16String
    case _: Int         => ValueTag.Int
    case _: Long        => ValueTag.Long
    case _: Double      => ValueTag.Double
    case _: Float       => ValueTag.Float
    case _: Boolean     => ValueTag.Boolean
    case _: Short       => ValueTag.Short
    case _: Byte        => ValueTag.Byte
    case _: Char        => ValueTag.Char
    case _: Array[Byte] => ValueTag.ByteArray
    case t: (_, _)
        if t.getClass == classOf[(_, _)] && !t._1.isInstanceOf[Product] && !t._2
          .isInstanceOf[Array[_]] =>
      ValueTag.Tuple2
    case _ => ValueTag.Serialized
  }

  private def same(a: Any, b: Any): Boolean = (a, b) match {
    case (x: Array[Byte], y: Array[Byte]) => x.sameElements(y)
    case (x: Array[Int], y: Array[Int])   => x.sameElements(y)
    case (x: (_, _), y: (_, _)) => x.getClass == y.getClass && same(x._1, y._1) && same(x._2, y._2)
    case (x: Double, y: Double) =>
      java.lang.Double.doubleToRawLongBits(x) == java.lang.Double.doubleToRawLongBits(y)
    case _ => a == b && (a == null || a.getClass == b.getClass)
  }

  for ((name, ser) <- serializers) {
    test(s"every sample round-trips with the $name serializer as fallback, in the expected form") {
      val encoder = new ValueEncoder(ser)
      val decoder = new ValueDecoder(ser)
      for (v <- samples) {
        encoder.encode(v)
        // Encoded bytes sit inside a larger buffer, as they do in a page or a spill reader's scratch.
        val copy = new Array[Byte](encoder.length + 10)
        System.arraycopy(encoder.bytes, 0, copy, 5, encoder.length)
        val back = decoder.decode(copy, 5, encoder.length)
        assert(copy(5) == expectedTag(v), s"form of $v")
        assert(same(v, back), s"$v came back as $back (${Option(back).map(_.getClass)})")
      }
    }
  }

  test("a decoded value shares nothing with the buffer it came from") {
    val ser = serializers.head._2
    val encoder = new ValueEncoder(ser)
    encoder.encode(Array[Byte](4, 5, 6))
    val buffer = encoder.bytes.clone()
    val back = new ValueDecoder(ser).decode(buffer, 0, encoder.length).asInstanceOf[Array[Byte]]
    java.util.Arrays.fill(buffer, 0.toByte)
    assert(back.toSeq == Seq[Byte](4, 5, 6))
  }

  test("a corrupt tag fails with a clear message") {
    val e = intercept[IllegalStateException](
      new ValueDecoder(serializers.head._2).decode(Array[Byte](99), 0, 1)
    )
    assert(e.getMessage.contains("unknown tag 99"))
  }
}
