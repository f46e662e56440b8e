/**
 * The door: the Spring Security filter chains, shopper tokens and the admin login ({@code web.security}, a named
 * interface: the features' web adapters use {@code CurrentShopper} and {@code ShopperCookie}), the one place that
 * turns exceptions and refusals into RFC 9457 problem details with a stable code ({@link dev.seckill.web.ProblemCode},
 * {@code ApiExceptionHandler}, {@code Refusals}), the filters every request passes (body size, instance id, late
 * answers), and the pages' chrome ({@link dev.seckill.web.Pages}). Each feature keeps its own controllers and pages in
 * its {@code web} sub-package; this module depends on no feature. Owns no table, key or script.
 */
package dev.seckill.web;
