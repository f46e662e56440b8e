package dev.seckill.lab;

/** A run's keys on the lab's nodes, all with the run's hash tag (one slot, so its scripts may take several). */
record LabKeys(String run) {

    private String key(String name) {
        return "seckill:lab:{" + run + "}:" + name;
    }

    String definition() {
        return key("run");
    }

    String stock() {
        return key("stock");
    }

    /** The lock's name, on the first node, or on every node for the MultiLock. */
    String lock() {
        return key("lock");
    }

    /** How many holders took the lock, counted only under a crash fault (to pick the one that dies). */
    String taken() {
        return key("taken");
    }

    String holders() {
        return key("holders");
    }

    String attempts() {
        return key("attempts");
    }

    String stats() {
        return key("stats");
    }

    /** The newest fencing token the stock has seen ({@code redisson-fenced}). */
    String fence() {
        return key("fence");
    }
}
