package dev.levee.hurricane.executor

import org.apache.spark.api.plugin.PluginContext

import dev.levee.hurricane.protocol.{Codec, Reply, Request}

/** A task's line to the driver's coordinator: the executor plugin's context, set when the executor starts. */
object CoordinatorClient {
  @volatile private var context: PluginContext = _

  private[hurricane] def attach(ctx: PluginContext): Unit = context = ctx

  /** Whether this JVM's executor loaded the Hurricane plugin (`spark.plugins`). */
  def available: Boolean = context != null

  def ask(request: Request): Reply = {
    val ctx = context
    if (ctx == null) throw new IllegalStateException(CoordinatorClient.NotLoaded)
    Codec.decodeReply(ctx.ask(Codec.encode(request)).asInstanceOf[Array[Byte]])
  }

  /** Fire and forget: nothing depends on its arrival (the listener bus says the same a little later). */
  def tell(request: Request): Unit = {
    val ctx = context
    if (ctx != null) ctx.send(Codec.encode(request))
  }

  val NotLoaded: String =
    "the Hurricane plugin is not loaded in this executor: add dev.levee.hurricane.HurricanePlugin to spark.plugins"
}
