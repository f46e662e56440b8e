/**
 * Everything HTTP, and nothing else speaks it: the controllers and pages ({@code web.shop}, {@code web.admin}),
 * Spring Security's chains ({@code web.security}), RFC 9457 problem details with stable codes
 * ({@link dev.seckill.web.ProblemCode}), the one mapping from the sale's refusals to them
 * ({@link dev.seckill.web.Refusals}), and the filters (instance id, body size). Owns no table or key.
 */
package dev.seckill.web;
