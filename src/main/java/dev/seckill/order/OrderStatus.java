package dev.seckill.order;

/** PENDING and FAILED are used by the asynchronous path; the synchronous path confirms in one step. */
public enum OrderStatus { PENDING, CONFIRMED, FAILED }
