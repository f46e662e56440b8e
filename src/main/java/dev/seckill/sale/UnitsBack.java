package dev.seckill.sale;

/**
 * Units of a voucher are back on sale: an order was given up and its unit returned, or the voucher's Redis state was
 * rebuilt. The sold-out flags hear it and every instance sells the voucher again; the stages that give units back
 * say so without knowing who keeps the flags.
 */
public record UnitsBack(long voucherId) {
}
