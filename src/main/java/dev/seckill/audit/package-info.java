/**
 * A voucher's audit: MySQL's stock and orders, Redis's counter, buyers and pending orders, and the data
 * losses the durability module recorded, counted against each other into one verdict. Reads only; owns
 * no table, key or script.
 */
package dev.seckill.audit;
