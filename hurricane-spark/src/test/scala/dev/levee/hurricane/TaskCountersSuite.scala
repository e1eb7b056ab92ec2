package dev.levee.hurricane

import java.nio.file.{Files, Paths}

import org.scalatest.funsuite.AnyFunSuite

class TaskCountersSuite extends AnyFunSuite {
  test("the module README lists every task counter with the doc the code gives it") {
    val readme = new String(Files.readAllBytes(Paths.get("README.md")), "UTF-8")
    TaskCounters.All.foreach { c =>
      assert(readme.contains(s"| `${c.name}` | ${c.doc} |"), s"README row for ${c.name}")
    }
  }

  test("a timed span hands its streams through unchanged") {
    val task = TaskCounters.Task.Unregistered
    val streams =
      task.span(TaskCounters.MergeMs, Iterator(Iterator(1, 2), Iterator.empty, Iterator(3)))
    assert(streams.flatten.toVector == Vector(1, 2, 3))
  }
}
