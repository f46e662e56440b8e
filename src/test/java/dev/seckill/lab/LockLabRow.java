package dev.seckill.lab;

import tools.jackson.databind.JsonNode;

/**
 * One run of the lock lab as the report reads it: the lab's own counts ({@code GET /admin/lab/runs/{run}}) and what
 * the load client saw of it ({@code loadRps}: requests a second through Nginx; answers that were not 2xx; requests
 * that got no answer).
 */
record LockLabRow(String strategy, String fault, long initialStock, long deducted, long oversold, long lostUpdates,
        long overlaps, long maxHolders, long deletedAnothers, long releaseNotHeld, String stuck, long busy, long crashed,
        long fenced, long errors, double meanWaitMs, double maxWaitMs, double loadRps, long non2xx, long failed) {

    /** The lab's result (or a line of results.jsonl, which is the same with the load's three numbers added). */
    static LockLabRow of(JsonNode result) {
        return new LockLabRow(result.path("strategy").asString(), result.path("fault").asString(),
                result.path("initialStock").asLong(), result.path("deducted").asLong(), result.path("oversold").asLong(),
                result.path("lostUpdates").asLong(), result.path("overlaps").asLong(), result.path("maxHolders").asLong(),
                result.path("deletedAnothers").asLong(), result.path("releaseNotHeld").asLong(),
                result.path("stuck").asString(), result.path("busy").asLong(), result.path("crashed").asLong(),
                result.path("fenced").asLong(), result.path("errors").asLong(), result.path("meanWaitMs").asDouble(),
                result.path("maxWaitMs").asDouble(), result.path("loadRps").asDouble(), result.path("non2xx").asLong(),
                result.path("failed").asLong());
    }

    /** {@code strategy/fault}, as the expectations and the report name a run. */
    String key() {
        return strategy + "/" + fault;
    }

    /** No overlap, no lost update, nothing oversold. */
    boolean clean() {
        return overlaps == 0 && lostUpdates == 0 && oversold == 0;
    }
}
