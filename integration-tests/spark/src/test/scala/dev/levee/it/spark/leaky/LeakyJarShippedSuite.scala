package dev.levee.it.spark.leaky

import java.io.File
import java.nio.file.Path
import java.util.concurrent.TimeUnit

import scala.concurrent.duration._

import org.apache.spark.{SparkConf, SparkContext}
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

import dev.levee.it.spark.{
  ExecutorProcesses,
  ExecutorRegistration,
  FixtureConf,
  SparkHome,
  SparkTopology
}
import dev.levee.it.spark.ShuffleWorkloads._
import dev.levee.it.spark.leaky.LeakyWorkloads._
import dev.levee.leaky.implicits._

/**
 * The way users deploy it: the packaged jar in `spark.jars`, and executors whose own classpath has
 * no leaky classes. The fixture's [[dev.levee.it.spark.SparkCluster]] always hands executors the
 * driver's whole classpath, so this suite starts its context from the same [[FixtureConf]] with the
 * leaky entry taken out of that classpath.
 */
class LeakyJarShippedSuite extends AnyFunSuite with BeforeAndAfterAll {

  private val topology = SparkTopology.TwoExecutorJvms
  @volatile private var sc: SparkContext = _
  @volatile private var jar: Path = _

  override protected def beforeAll(): Unit = {
    super.beforeAll()
    LeakyJar.locate() match {
      case Left(why) => throw new IllegalStateException(s"cannot test the spark.jars path: $why")
      case Right(j)  => jar = j
    }
    val home = SparkHome.prepare(sys.env)
    val withoutLeaky = FixtureConf.DriverSide.current() match {
      case side =>
        side.copy(classPath =
          side.classPath.filterNot(e => LeakyJar.isLeakyOrItsConfig(new File(e).toPath))
        )
    }
    val conf: SparkConf = FixtureConf.build(
      topology,
      getClass.getSimpleName,
      Map(
        "spark.jars" -> jar.toString,
        "spark.shuffle.manager" -> LeakyExecutorProbe.ManagerClass,
        "spark.serializer" -> "org.apache.spark.serializer.KryoSerializer",
        "spark.executor.memory" -> "768m"
      ),
      withoutLeaky
    )
    assert(
      !conf
        .get(FixtureConf.ExecutorClassPathKey)
        .split(File.pathSeparator)
        .exists(e => LeakyJar.isLeakyOrItsConfig(new File(e).toPath))
    )
    sc = new SparkContext(conf)
    try
      ExecutorRegistration.await(
        sc,
        FixtureConf.expectedExecutors(topology, conf),
        120.seconds,
        home
      )
    catch { case e: Throwable => stopAndReap(); throw e }
  }

  override protected def afterAll(): Unit =
    try stopAndReap()
    finally super.afterAll()

  /** Stops the context and waits for the executor JVMs to go; kills and reports any that stay. */
  private def stopAndReap(): Unit = {
    val context = sc
    sc = null
    if (context != null) {
      val executors = ExecutorProcesses.of(context.applicationId).values.toSeq
      context.stop()
      val survivors = executors.filterNot { p =>
        try { p.onExit().get(30, TimeUnit.SECONDS); true }
        catch { case _: java.util.concurrent.TimeoutException => !p.isAlive }
      }
      survivors.foreach(_.destroyForcibly())
      if (survivors.nonEmpty)
        throw new IllegalStateException(
          s"executor JVMs ${survivors.map(_.pid())} outlived the context"
        )
    }
  }

  test("executors load the leaky shuffle manager and table from the jar Spark shipped them") {
    val data = zipfWords(seed = 31, n = 20000, keys = 1500)
    val actual = sc.parallelize(data, 4).groupByKey(3).mapValues(vs => multiset(vs)).collect().toMap
    assert(actual == grouped(data))

    val reports = LeakyExecutorProbe.reports(sc)
    assert(reports.size == 2, s"probe did not reach both executors: $reports")
    reports.foreach { r =>
      withClue(s"executor ${r.jvm.executorId}: ") {
        assert(
          !r.onSystemClassPath,
          "the leaky classes must not be on the executor's own classpath"
        )
        assert(r.shuffleManager == LeakyExecutorProbe.ManagerClass)
      }
    }
    val loaded = reports.filter(_.tableLoaded)
    assert(loaded.nonEmpty, s"no executor ran the leaky table: $reports")
    // Executors fetch spark.jars into their work directory and load them from there.
    assert(
      loaded.forall(r =>
        r.tableSource.endsWith("/" + jar.getFileName) && !r.tableSource.contains(
          jar.getParent.toString
        )
      ),
      s"table class sources: ${loaded.map(_.tableSource)}; shipped jar $jar"
    )
  }

  test("the jar is the only one a user adds: it carries the config registry relocated") {
    val entries = {
      val zip = new java.util.zip.ZipFile(jar.toFile)
      try {
        import scala.jdk.CollectionConverters._
        zip.entries().asScala.map(_.getName).toList
      } finally zip.close()
    }
    assert(entries.contains("dev/levee/leaky/shaded/config/ConfigRegistry.class"), jar)
    assert(
      !entries.exists(_.startsWith("dev/levee/config/")),
      s"$jar has unrelocated config classes"
    )
    // The executors built their LeakyConf (every shuffle manager does) from the shipped jar alone.
    val sources = sc
      .parallelize(1 to 4, 4)
      .map { _ =>
        val registry = Class.forName(
          "dev.levee.leaky.shaded.config.ConfigRegistry",
          false,
          Thread.currentThread().getContextClassLoader
        )
        val plain =
          try { Class.forName("dev.levee.config.ConfigRegistry"); true }
          catch { case _: ClassNotFoundException => false }
        (String.valueOf(registry.getProtectionDomain.getCodeSource.getLocation), plain)
      }
      .collect()
    assert(sources.forall(_._1.endsWith("/" + jar.getFileName)), sources.toSeq)
    assert(!sources.exists(_._2), "levee-config must not be on the executors' own classpath")
  }

  test("leakyJoin from the shipped jar equals Spark's join") {
    val left = zipfWords(seed = 32, n = 10000, keys = 1000, firstKey = 500)
    val right = uniformWords(seed = 33, n = 3000, keys = 0 until 1000)
    val (l, r) = (sc.parallelize(left, 3), sc.parallelize(right, 2))
    val leaky = l.leakyJoin(r, 3).collect().toSeq
    val stock = l.join(r, 3).collect().toSeq
    assert(leaky.nonEmpty && multiset(leaky) == multiset(stock))
  }
}
