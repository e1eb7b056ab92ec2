package dev.levee.it.spark.leaky

import org.apache.spark.{SparkContext, SparkEnv}

import dev.levee.it.spark.TaskJvm

/**
 * What the executor JVMs can tell about the leaky buffer: which shuffle manager they run, whether
 * the leaky table's class has been loaded there (so its code really ran, not just sat on the
 * classpath), and where that class was loaded from.
 */
object LeakyExecutorProbe {

  val ManagerClass = "org.apache.spark.shuffle.levee.LeakyShuffleManager"
  val TableClass = "dev.levee.leaky.table.LeakyHashTable"

  /**
   * @param onSystemClassPath whether the JVM's own classpath (not a jar Spark fetched) has the leaky classes
   * @param tableSource where the loaded table class came from, "" if not loaded
   */
  final case class Report(
      jvm: TaskJvm,
      shuffleManager: String,
      onSystemClassPath: Boolean,
      tableLoaded: Boolean,
      tableSource: String
  )

  /** One report per executor JVM that ran one of `tasks` short tasks (enough to reach them all). */
  def reports(sc: SparkContext, tasks: Int = 8): Seq[Report] =
    sc.parallelize(1 to tasks, tasks)
      .mapPartitions { _ =>
        val loader = Thread.currentThread().getContextClassLoader
        val loaded = loadedBy(loader, TableClass)
        val source = loaded
          .map(c => String.valueOf(c.getProtectionDomain.getCodeSource.getLocation))
          .getOrElse("")
        val onSystem = ClassLoader.getSystemClassLoader.getResource(
          TableClass.replace('.', '/') + ".class"
        ) != null
        Iterator(
          Report(
            TaskJvm.current(),
            SparkEnv.get.shuffleManager.getClass.getName,
            onSystem,
            loaded.isDefined,
            source
          )
        )
      }
      .collect()
      .distinctBy(_.jvm.pid)
      .toSeq

  /**
   * The class if `loader` or one of its parents has already loaded it; never loads it.
   * (Executors open java.lang to unnamed modules, so the protected findLoadedClass is reachable.)
   */
  private def loadedBy(loader: ClassLoader, name: String): Option[Class[_]] = {
    val find = classOf[ClassLoader].getDeclaredMethod("findLoadedClass", classOf[String])
    find.setAccessible(true)
    Iterator
      .iterate(loader)(_.getParent)
      .takeWhile(_ != null)
      .map(l => find.invoke(l, name).asInstanceOf[Class[_]])
      .find(_ != null)
  }
}
