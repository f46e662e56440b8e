/**
 * What every module runs on, and no feature of its own. Graceful shutdown of an instance (SIGTERM), ordered by
 * SmartLifecycle phases, highest stopped first, every phase named in {@link dev.seckill.platform.ShutdownOrder}:
 * readiness goes to {@code REFUSING_TRAFFIC} and the instance keeps serving for {@code seckill.shutdown.drain} with
 * {@code Connection: close} ({@link dev.seckill.platform.TrafficDrain}); Tomcat finishes the requests in flight; the
 * sync unit sweeper stops; the order stream consumers finish, commit and acknowledge the batch in hand; the id worker
 * lease is released; the clients close. A kill -9 skips all of it and loses nothing either: what was not
 * acknowledged is read again. Also: {@link dev.seckill.platform.PeriodicTask} (a stoppable background loop),
 * {@link dev.seckill.platform.LuaScript} (a script loaded once and run by EVALSHA: each module loads its own), and
 * {@link dev.seckill.platform.Outages}, the one classifier of outages the web layer and the consumers share.
 * Owns no table, key or script.
 */
package dev.seckill.platform;
