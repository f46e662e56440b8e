/**
 * Who may call what, decided by Spring Security before any controller runs.
 * <ul>
 *   <li>{@code /admin/**} and every actuator endpoint but health: HTTP Basic against
 *       {@code seckill.auth.admin-user}/{@code admin-password}; failed logins are logged and limited per client
 *       address ({@link dev.seckill.web.security.AdminLoginLimiter}).</li>
 *   <li>{@code /seckill/**}, {@code /orders/**}: a shopper's JWT, checked by the resource server with the
 *       security module's decoder; the shop's pages take the same token from an HttpOnly cookie, with CSRF.</li>
 *   <li>a short public list ({@code /vouchers}, {@code /ping}, health); every other path is denied and answers 404.</li>
 * </ul>
 * Rules match the decoded, normalized path, behind Spring Security's {@code StrictHttpFirewall}; every refusal
 * is an RFC 9457 problem with a stable code. Owns the Redis keys {@code seckill:rate:admin-login-failures:*}.
 */
package dev.seckill.web.security;
