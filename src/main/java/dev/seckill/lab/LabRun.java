package dev.seckill.lab;

/** One run of the lab: a strategy under a fault, on a stock of its own. */
public record LabRun(String id, Strategy strategy, Fault fault, int stock) {

    LabKeys keys() {
        return new LabKeys(id);
    }
}
