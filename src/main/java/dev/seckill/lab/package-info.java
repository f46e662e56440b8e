/**
 * The lock lab: the articles' stock deduction (read the stock, check it, write it back one lower: a
 * read-modify-write with none of the product's guards) run under each lock the articles argue about, with faults
 * switched on per run, so that each wrong lock is seen failing and each fix seen holding. Off unless
 * {@code seckill.lab.enabled=true}: then, and only then, its beans and the admin endpoints
 * ({@code lab.web.LabController}) exist.
 * <p>
 * The naive strategies ({@code none}, {@code jvm-synchronized}, {@code setnx-del}, {@code setnx-then-expire},
 * {@code set-nx-px}) are wrong on purpose: each is an article's mistake, kept as the article wrote it.
 * <p>
 * Never touches the product's Redis or MySQL: it talks only to its own Redis nodes ({@code seckill.lab.nodes},
 * through Redisson clients of its own), and owns there every key under {@code seckill:lab:}: per run
 * {@code seckill:lab:{<run>}:} {@code run} (the run's definition), {@code stock}, {@code lock} (on every node for
 * the MultiLock), {@code holders}, {@code attempts}, {@code taken}, {@code stats}, {@code fence}. No table.
 */
@Owns(redisKeys = "seckill:lab:", scripts = {"lab/enter.lua", "lab/record.lua", "lab/fenced-read.lua",
        "lab/fenced-write.lua", "lab/release-any.lua", "lab/release-own.lua"})
package dev.seckill.lab;

import dev.seckill.Owns;
