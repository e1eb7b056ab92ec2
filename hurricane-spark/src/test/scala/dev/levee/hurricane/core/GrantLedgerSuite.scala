package dev.levee.hurricane.core

import scala.collection.mutable

import dev.levee.hurricane.core.GrantLedger.{End, Granted, Wait}
import org.scalatest.funsuite.AnyFunSuite

class GrantLedgerSuite extends AnyFunSuite {

  test("a retry replays its slot's log before anything new; only the leader extends it") {
    val l = new GrantLedger(10)
    assert(l.request(0, attempt = 1, position = 0, window = 3) == Granted(0, Vector(0, 1, 2)))
    val clone = l.addWorker()
    assert(l.request(clone, 7, 0, 3) == Granted(0, Vector(3, 4, 5)))
    // A speculative copy of the owner replays, then waits at the log's end while the first attempt leads.
    assert(l.request(0, 2, 0, 10) == Granted(0, Vector(0, 1, 2)))
    assert(l.request(0, 2, 3, 10) == Wait)
    assert(l.replayedChunks == 3)
    // The leader fails: the copy takes over and extends from the cursor.
    l.attemptEnded(0, 1)
    assert(l.request(0, 2, 3, 2) == Granted(3, Vector(6, 7)))
    assert(l.request(0, 2, 5, 5) == Granted(5, Vector(8, 9)))
    assert(l.request(0, 2, 7, 5) == End)
    assert(l.isSealed(0))
    assert(l.request(clone, 7, 3, 3) == End)
    assert((l.log(0) ++ l.log(clone)).sorted == (0 until 10))
  }

  test("an adopted clone's log is sealed where it stands and no longer extended") {
    val l = new GrantLedger(6)
    val c = l.addWorker()
    assert(l.request(c, 1, 0, 2) == Granted(0, Vector(0, 1)))
    assert(l.adopt(c) == Vector(0, 1))
    assert(l.request(c, 2, 0, 5) == Granted(0, Vector(0, 1)))
    assert(l.request(c, 2, 2, 5) == End)
    assert(l.request(0, 9, 0, 10) == Granted(0, Vector(2, 3, 4, 5)))
    assertThrows[IllegalArgumentException](l.adopt(0))
  }

  private final class Attempt(val id: Long, val worker: Int) {
    var position = 0
    val processed = mutable.ArrayBuffer.empty[Int]
    var alive = true
  }

  /**
   * Random interleavings of grants, failures and retries, speculative copies, new clones and given-up clones. Every
   * chunk ends up in exactly one worker's log; the successful attempt of each slot processed exactly that log;
   * every attempt, replaying or not, saw a prefix of it.
   */
  test(
    "random interleavings: every chunk in exactly one successful worker's log, replays identical"
  ) {
    (0 until 1500).foreach(seed => simulate(seed))
  }

  private def simulate(seed: Int): Unit = {
    val rnd = new scala.util.Random(seed)
    val chunks = rnd.nextInt(80)
    val ledger = new GrantLedger(chunks)
    var nextId = 0L
    val attempts = mutable.ArrayBuffer.empty[Attempt]
    val succeeded = mutable.Map.empty[Int, Attempt]
    def spawn(worker: Int): Unit = { nextId += 1; attempts += new Attempt(nextId, worker) }
    def kill(a: Attempt): Unit = { a.alive = false; ledger.attemptEnded(a.worker, a.id) }
    def open(w: Int) = !succeeded.contains(w) && !ledger.isAdopted(w)
    spawn(0)
    var steps = 0
    while ((0 until ledger.workers).exists(open)) {
      steps += 1
      assert(steps < 200000, s"seed $seed did not finish")
      val live = attempts.filter(_.alive)
      val roll = rnd.nextInt(100)
      if (roll < 4 && ledger.workers < 8) spawn(ledger.addWorker())
      else if (roll < 9 && live.nonEmpty) {
        // A task fails (executor lost, exception, fetch failure); the engine retries it from scratch.
        val a = live(rnd.nextInt(live.size))
        kill(a)
        if (a.worker > 0 && rnd.nextInt(4) == 0) {
          ledger.adopt(a.worker) // the clone job is given up; its log goes to the owner
          attempts.filter(x => x.alive && x.worker == a.worker).foreach(kill)
        } else spawn(a.worker)
      } else if (roll < 12) {
        val candidates = (0 until ledger.workers).filter(open)
        spawn(candidates(rnd.nextInt(candidates.size))) // a speculative copy
      } else if (live.nonEmpty) {
        val a = live(rnd.nextInt(live.size))
        ledger.request(a.worker, a.id, a.position, 1 + rnd.nextInt(5)) match {
          case Granted(from, cs) =>
            assert(from == a.position)
            a.processed ++= cs
            a.position += cs.size
          case Wait =>
          case End  =>
            kill(a)
            if (open(a.worker)) {
              succeeded(a.worker) = a
              attempts
                .filter(x => x.alive && x.worker == a.worker)
                .foreach(kill) // the engine kills the losers
            }
        }
      }
      // Every worker slot must keep a live attempt until it succeeds or is adopted, as the engine retries.
      (0 until ledger.workers)
        .filter(w => open(w) && !attempts.exists(a => a.alive && a.worker == w))
        .foreach(spawn)
    }
    val logs = (0 until ledger.workers).map(ledger.log)
    assert(logs.flatten.sorted == (0 until chunks), s"seed $seed: logs ${logs.mkString(" ")}")
    succeeded.foreach { case (w, a) => assert(a.processed == logs(w), s"seed $seed worker $w") }
    attempts.foreach(a =>
      assert(logs(a.worker).startsWith(a.processed), s"seed $seed attempt ${a.id}")
    )
    // What the owner merges: partials of successful clones, plus adopted logs it replays; together, every chunk.
    val covered = (0 until ledger.workers).flatMap(w =>
      if (succeeded.contains(w)) logs(w) else Nil
    ) ++
      (1 until ledger.workers).filter(ledger.isAdopted).filterNot(succeeded.contains).flatMap(logs)
    assert(covered.sorted == (0 until chunks), s"seed $seed")
  }
}
