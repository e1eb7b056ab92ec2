package dev.levee.leaky.table

import scala.collection.mutable
import scala.util.Random

import dev.levee.leaky.memory.{PagePool, PagedBytes}
import org.scalatest.funsuite.AnyFunSuite

/** The two value layouts and the paged memory under them, without Spark. */
class ValueLayoutSuite extends AnyFunSuite {

  private val pageSize = 8192

  private def roundTrip(layout: ValueLayout): Unit = {
    val rnd = new Random(42)
    val expected = mutable.Map[Int, mutable.ArrayBuffer[(Int, String)]]()
    for (i <- 0 until 20000) {
      val id = if (rnd.nextInt(10) == 0) rnd.nextInt(3) else rnd.nextInt(500) // a few hot keys
      val len = rnd.nextInt(20) match {
        case 0 => 0
        case 1 => pageSize * 2 + rnd.nextInt(100) // larger than a page
        case _ => rnd.nextInt(200)
      }
      val value = Array.fill(len)(('a' + rnd.nextInt(26)).toByte)
      val tag = rnd.nextInt(2)
      layout.ensureKey(id)
      // The value sits at an offset inside a larger array, as serializer buffers do.
      val buffer = new Array[Byte](len + 7)
      System.arraycopy(value, 0, buffer, 3, len)
      layout.append(id, tag, buffer, 3, len)
      expected
        .getOrElseUpdate(id, mutable.ArrayBuffer()) += ((tag, new String(value, "ISO-8859-1")))
    }
    expected.foreach { case (id, values) =>
      val seen = mutable.ArrayBuffer[(Int, String)]()
      layout.foreachRecord(
        id,
        new RecordVisitor {
          override def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit =
            seen += ((tag, new String(bytes, offset, length, "ISO-8859-1")))
        }
      )
      assert(seen == values, s"key $id: values must come back intact and in insertion order")
    }
  }

  test("group layout returns every key's tagged values in insertion order") {
    roundTrip(new GroupRunLayout(pageSize, 1024))
  }

  test("join layout returns every key's tagged values in insertion order") {
    roundTrip(new SharedAreaJoinLayout(pageSize, 1024))
  }

  test("paged memory grows by whole pages without copying; huge regions get their own page") {
    val store = new PagedBytes(pageSize)
    val first = store.reserve(100)
    store.page(first)(PagedBytes.offset(first)) = 7
    (0 until 1000).foreach(_ => store.reserve(100))
    // 81 regions of 100 bytes fit a page, so 1001 regions take 13 pages
    assert(store.allocatedBytes == 13L * pageSize)
    assert(store.page(first)(PagedBytes.offset(first)) == 7, "earlier pages are never moved")
    val huge = store.reserve(pageSize * 3)
    assert(store.page(huge).length == pageSize * 3)
    assert(
      store.allocationFor(1) == pageSize,
      "after a dedicated page the next region starts a new page"
    )
  }

  test("recycled paged memory reuses its standard pages and drops dedicated ones") {
    val store = new PagedBytes(pageSize)
    (0 until 1000).foreach(_ => store.reserve(100))
    store.reserve(pageSize * 3)
    assert(store.allocatedBytes == 13L * pageSize + pageSize * 3)
    store.recycle()
    assert(
      store.allocatedBytes == 13L * pageSize && store.spareBytes == 13L * pageSize,
      "standard pages stay charged while kept; the dedicated one is gone"
    )
    assert(store.allocationFor(100) == 0, "a kept page makes the next page free of new memory")
    (0 until 1000).foreach(_ => store.reserve(100))
    assert(
      store.allocatedBytes == 13L * pageSize && store.spareBytes == 0,
      "the refill used only kept pages"
    )
    assert(
      store.allocationFor(pageSize) == pageSize,
      "with no kept page left, growth allocates again"
    )
    store.recycle()
    (0 until 100).foreach(_ => store.reserve(100)) // two of the 13 kept pages
    store.dropSpare()
    assert(
      store.allocatedBytes == 2L * pageSize && store.spareBytes == 0,
      "dropping the spares keeps the pages in use"
    )
    store.clear()
    assert(store.allocatedBytes == 0 && store.spareBytes == 0)
  }

  test("a cleared store hands its standard pages to the pool and the next store refills them") {
    val pool = PagePool.isolated(pageSize, maxPages = 4)
    val first = new PagedBytes(pageSize, Some(pool))
    // Held strongly here, so the pool's weak references cannot be cleared under the test.
    val pages = (0 until 3).map(_ => first.page(first.reserve(pageSize)))
    val dedicated = first.page(first.reserve(pageSize * 2))
    first.clear()
    assert(first.allocatedBytes == 0, "a store given back to the pool holds nothing")

    val next = new PagedBytes(pageSize, Some(pool))
    val reused = (0 until 4).map(_ => next.page(next.reserve(pageSize)))
    assert(
      reused.take(3).forall(p => pages.exists(_ eq p)),
      "the next store's first pages are the given-back ones"
    )
    assert(!reused.exists(_ eq dedicated), "a page larger than the page size is never pooled")
    assert(!pages.exists(_ eq reused(3)), "with the pool empty, growth allocates a new page")
    assert(next.allocatedBytes == 4L * pageSize, "a reused page is charged like a new one")

    next.recycle()
    next.reserve(100)
    next.dropSpare() // the three pages the refill did not take go to the pool
    val third = new PagedBytes(pageSize, Some(pool))
    assert(
      reused.exists(_ eq third.page(third.reserve(10))),
      "dropped spares are pooled"
    )

    val full = PagePool.isolated(pageSize, maxPages = 1)
    val a = new Array[Byte](pageSize)
    val b = new Array[Byte](pageSize)
    full.give(a)
    full.give(b)
    assert((full.take() eq a) && full.take() == null, "a full pool drops what it cannot keep")
  }

  test("layouts refill pooled pages intact") {
    val pool = PagePool.isolated(pageSize, maxPages = 1024)
    for (
      newLayout <- Seq(
        () => new GroupRunLayout(pageSize, 1024, Some(pool)),
        () => new SharedAreaJoinLayout(pageSize, 1024, Some(pool))
      )
    ) {
      val used = newLayout()
      roundTrip(used)
      used.clear()
      roundTrip(newLayout()) // written over another table's stale bytes
    }
  }

  test("a recycled layout holds only the new fill's values, on the old pages") {
    for (
      layout <- Seq(new GroupRunLayout(pageSize, 1024), new SharedAreaJoinLayout(pageSize, 1024))
    ) {
      roundTrip(layout)
      val held = layout.memoryBytes
      layout.recycle()
      // The refill writes over stale bytes: every key must see only what was appended since.
      layout.ensureKey(0)
      layout.append(0, 1, "fresh".getBytes("ISO-8859-1"), 0, 5)
      val seen = mutable.ArrayBuffer[(Int, String)]()
      layout.foreachRecord(
        0,
        new RecordVisitor {
          override def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit =
            seen += ((tag, new String(bytes, offset, length, "ISO-8859-1")))
        }
      )
      assert(seen == Seq((1, "fresh")), s"${layout.getClass.getSimpleName} after recycle")
      assert(layout.memoryBytes <= held, "recycling allocates nothing new for a small refill")
      layout.recycle()
      roundTrip(layout) // a full refill over recycled pages comes back intact too
    }
  }

  test("record headers round-trip lengths of every varint size") {
    for (len <- Seq(0, 1, 127, 128, 16383, 16384, 2097151, 2097152)) {
      val b = new Array[Byte](RecordFormat.recordSize(len))
      val at = RecordFormat.writeHeader(b, 0, 5, len)
      assert(at + len == b.length)
      var got = (-1, -1)
      val end = RecordFormat.visit(
        b,
        0,
        new RecordVisitor {
          override def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit = got =
            (tag, length)
        }
      )
      assert(got == ((5, len)) && end == b.length)
    }
  }
}
