package dev.levee.hurricane.protocol

import java.io.IOException

import dev.levee.hurricane.core.{MapRange, WorkerLoad}
import org.scalatest.funsuite.AnyFunSuite

class CodecSuite extends AnyFunSuite {
  private val bag = BagKey(3, 1, 7, 2, 5, 1)

  test("every request and reply survives the round trip") {
    val requests = Seq(
      Open(bag, Array(0L, 5L, Long.MaxValue)),
      Open(bag, Array(1L), keyed = true),
      Grant(bag, 2, 99L, 14),
      Grant(bag, 2, 99L, 14, WorkerLoad(1000L, 250L)),
      CloneStates(bag),
      Adopt(bag, 3),
      AttemptEnded(42L)
    )
    requests.foreach { r =>
      (r, Codec.decodeRequest(Codec.encode(r))) match {
        case (Open(b, s, k), Open(b2, s2, k2)) =>
          assert(b == b2 && s.toSeq == s2.toSeq && k == k2)
        case (a, b) => assert(a == b)
      }
    }
    val ranges = IndexedSeq(MapRange(0, 4, 100), MapRange(4, Int.MaxValue, 7))
    Seq(
      Opened(9),
      Granted(3, ranges, whole = true),
      WaitAndRetry,
      Complete,
      UnknownBag,
      Clones(IndexedSeq(CloneRunning(1), CloneDone(2, 77), CloneGivenUp(3))),
      Adopted(ranges),
      Ack
    ).foreach(r => assert(Codec.decodeReply(Codec.encode(r)) == r))
  }

  test(
    "a message from another version, of an unknown type, truncated or with trailing bytes is refused"
  ) {
    val good = Codec.encode(Grant(bag, 0, 1L, 0))
    val otherVersion = good.clone()
    otherVersion(0) = 9
    assert(
      intercept[IOException](Codec.decodeRequest(otherVersion)).getMessage.contains("version 9")
    )
    val unknown = good.clone()
    unknown(1) = 77
    assert(
      intercept[IOException](Codec.decodeRequest(unknown)).getMessage
        .contains("unknown request type 77")
    )
    intercept[IOException](Codec.decodeRequest(good.dropRight(3)))
    assert(
      intercept[IOException](Codec.decodeRequest(good :+ 0.toByte)).getMessage.contains("trailing")
    )
  }

  test("a count beyond the limit is refused before anything is allocated") {
    val open = Codec.encode(Open(bag, Array(1L)))
    // The count follows the version, the type and six ints of the bag key.
    val at = 1 + 1 + 6 * 4
    val huge = open.clone()
    huge(at) = 0x7f
    assert(intercept[IOException](Codec.decodeRequest(huge)).getMessage.contains("entry count"))
  }

  test("a grant whose load has more keys than records, or negative counts, is refused") {
    val good = Codec.encode(Grant(bag, 0, 1L, 0, WorkerLoad(10L, 10L)))
    def withLoad(records: Long, keys: Long): Array[Byte] = {
      val bytes = good.clone()
      java.nio.ByteBuffer.wrap(bytes, bytes.length - 16, 16).putLong(records).putLong(keys)
      bytes
    }
    assert(Codec.decodeRequest(withLoad(10L, 10L)) == Grant(bag, 0, 1L, 0, WorkerLoad(10L, 10L)))
    Seq((10L, 11L), (-1L, 0L), (5L, -1L)).foreach { case (r, k) =>
      val e = intercept[IOException](Codec.decodeRequest(withLoad(r, k)))
      assert(e.getMessage.contains(s"$r records and $k keys"), e.getMessage)
    }
  }
}
