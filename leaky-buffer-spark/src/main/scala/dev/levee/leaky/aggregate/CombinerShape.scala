package dev.levee.leaky.aggregate

/**
 * Whether an aggregation's combiner grows with the values it absorbs (a collection: groupByKey's buffer, a set per
 * key) or stays one small object per key (a sum, a count, a maximum). Growing combiners are what the leaky table is
 * for: combined on arrival, every value becomes a long-lived object, the paper's first precondition of a GC
 * collapse. Fixed ones hold one object per key either way, as the table's own keys do, so buffering their
 * serialized copies until emission only adds work.
 */
sealed trait CombinerShape

object CombinerShape {
  case object Growing extends CombinerShape
  case object Fixed extends CombinerShape

  /** The type alone does not say (a generic type, a tuple or a user class): look at a combiner. */
  case object Unknown extends CombinerShape

  private val FixedClassNames = Set(
    "boolean",
    "byte",
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "void",
    "scala.runtime.Null$", // distinct() combines (x, null)
    "scala.runtime.Nothing$",
    "scala.runtime.BoxedUnit",
    "java.lang.String"
  )

  /** The shape of a combiner class named by a ShuffleDependency's class tag (`None`: no tag). */
  def ofClassName(name: Option[String], loader: ClassLoader): CombinerShape = name match {
    case None                          => Unknown
    case Some(n) if FixedClassNames(n) => Fixed
    case Some(n)                       =>
      try ofClass(Class.forName(n, false, loader))
      catch { case _: ClassNotFoundException | _: LinkageError => Unknown }
  }

  def ofClass(c: Class[_]): CombinerShape =
    if (isCollection(c)) Growing
    else if (c.isPrimitive || classOf[Number].isAssignableFrom(c) || c == classOf[String]) Fixed
    else if (c == classOf[java.lang.Boolean] || c == classOf[java.lang.Character]) Fixed
    else if (classOf[java.lang.Enum[_]].isAssignableFrom(c)) Fixed
    else Unknown

  /** The shape of one combiner: collections grow, and so does a tuple or case class holding one (two levels). */
  def ofValue(v: Any): CombinerShape = if (grows(v, 2)) Growing else Fixed

  private def grows(v: Any, depth: Int): Boolean = v match {
    case null                                          => false
    case _: String                                     => false
    case x if isCollection(x.getClass)                 => true
    case p: Product if depth > 0 && p.productArity > 0 =>
      p.productIterator.exists(grows(_, depth - 1))
    case _ => false
  }

  private def isCollection(c: Class[_]): Boolean =
    c.isArray ||
      classOf[scala.collection.IterableOnce[_]].isAssignableFrom(c) ||
      classOf[java.lang.Iterable[_]].isAssignableFrom(c) ||
      classOf[java.util.Map[_, _]].isAssignableFrom(c)
}
