package dev.levee.leaky.join

/**
 * Which pairs a join emits for a key, given its left values `vs` and right values `ws`, as Spark's join operators
 * do: inner joins pair every v with every w; an outer side with no match is paired with None; the other side's
 * values are wrapped in Some.
 */
sealed abstract class JoinKind(val keepsLonelyLeft: Boolean, val keepsLonelyRight: Boolean) {
  def pair(v: Any, w: Any): (Any, Any)
  def lonelyLeft(v: Any): (Any, Any)
  def lonelyRight(w: Any): (Any, Any)
}

object JoinKind {
  case object Inner extends JoinKind(false, false) {
    def pair(v: Any, w: Any): (Any, Any) = (v, w)
    def lonelyLeft(v: Any): (Any, Any) = throw new IllegalStateException(
      "an inner join has no lonely side"
    )
    def lonelyRight(w: Any): (Any, Any) = throw new IllegalStateException(
      "an inner join has no lonely side"
    )
  }

  case object LeftOuter extends JoinKind(true, false) {
    def pair(v: Any, w: Any): (Any, Any) = (v, Some(w))
    def lonelyLeft(v: Any): (Any, Any) = (v, None)
    def lonelyRight(w: Any): (Any, Any) = throw new IllegalStateException(
      "right values never stand alone"
    )
  }

  case object RightOuter extends JoinKind(false, true) {
    def pair(v: Any, w: Any): (Any, Any) = (Some(v), w)
    def lonelyLeft(v: Any): (Any, Any) = throw new IllegalStateException(
      "left values never stand alone"
    )
    def lonelyRight(w: Any): (Any, Any) = (None, w)
  }

  case object FullOuter extends JoinKind(true, true) {
    def pair(v: Any, w: Any): (Any, Any) = (Some(v), Some(w))
    def lonelyLeft(v: Any): (Any, Any) = (Some(v), None)
    def lonelyRight(w: Any): (Any, Any) = (None, Some(w))
  }
}
