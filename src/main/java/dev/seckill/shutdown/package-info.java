/**
 * Graceful shutdown of an instance (SIGTERM: {@code scripts/cluster down}, {@code docker stop}, a
 * Kubernetes pod deletion). The order is set by SmartLifecycle phases, highest stopped first; every
 * phase is named in {@link dev.seckill.shutdown.ShutdownOrder}:
 * <ol>
 *   <li>readiness goes to {@code REFUSING_TRAFFIC} and the instance keeps serving for
 *       {@code seckill.shutdown.drain}, answering {@code Connection: close} so that the balancer's pooled
 *       connections are closed ({@link dev.seckill.shutdown.TrafficDrain});</li>
 *   <li>Tomcat closes its port and finishes the requests in flight (Spring Boot's graceful shutdown,
 *       {@code server.shutdown: graceful}, bounded by {@code spring.lifecycle.timeout-per-shutdown-phase});</li>
 *   <li>the sync unit sweeper stops (every request of this instance has settled its own unit by then);</li>
 *   <li>the order stream consumers finish the batch in hand, commit it, acknowledge it and stop;</li>
 *   <li>the id worker lease is released, after the last id was issued;</li>
 *   <li>the Redis and MySQL clients close (bean destruction, after every lifecycle stopped).</li>
 * </ol>
 * A kill -9 skips all of it and loses nothing either: what was not acknowledged is read again by the
 * instance restarted under the same consumer name, or taken over by another after {@code claim-idle}.
 */
package dev.seckill.shutdown;
