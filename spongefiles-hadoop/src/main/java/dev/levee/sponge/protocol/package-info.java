/**
 * The sponge protocol: what a client and a sponge server say to each other, and nothing else.
 *
 * <h2>Wire format</h2>
 *
 * TCP, big-endian. Every message is one frame:
 *
 * <pre>
 *   int32  length      bytes after this field (header + payload); at most 10 + 2048 + chunk size
 *   u8     version     1
 *   u8     code        request: {@link dev.levee.sponge.protocol.Op}; reply: {@link dev.levee.sponge.protocol.Status}
 *   int64  requestId   chosen by the client, echoed in the reply
 *   ...    payload
 * </pre>
 *
 * Strings are {@code u16 length | UTF-8} (at most 512 bytes); a capability is 16 bytes from
 * SecureRandom.
 *
 * <pre>
 *   ALLOCATE_WRITE  str appId, i64 ownerPid, str ownerNode, i32 n, n data bytes -> OK i32 chunk, cap[16] [load] | NO_ROOM
 *   READ            i32 chunk, cap[16]                                       -> OK i32 n, n data bytes
 *   FREE            i32 chunk, cap[16]                                       -> OK
 *   FREE_SPACE      (empty)                                                  -> OK i32 free, i32 total, i32 chunkSize
 *   IS_ALIVE        i64 pid                                                  -> OK u8 alive
 *   CHALLENGE       (empty)                                                  -> OK nonce[16]  (see Handshake)
 *   AUTHENTICATE    u8 kind, str principal, mac[32]                          -> OK | UNAUTHENTICATED
 *   RENEW           i64 ownerPid, str ownerNode                              -> OK
 *   any error                                                                -> status, str message
 * </pre>
 *
 * {@code load} ({@link dev.levee.sponge.protocol.ServerLoad}: i32 stores in progress, i32 free
 * chunks) is an optional tail: servers before it do not send it, and clients before it stop reading
 * after the capability, so either side may be the older one.
 *
 * <p>A wrong capability and an unknown chunk both answer {@code NO_SUCH_CHUNK}. A bad version,
 * unknown op or bad payload is answered and the connection keeps serving; a length prefix out of
 * range is answered and the connection closed (frame sync is lost); a frame cut short closes the
 * connection.
 */
package dev.levee.sponge.protocol;
