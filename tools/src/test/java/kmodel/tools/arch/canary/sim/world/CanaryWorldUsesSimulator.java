package kmodel.tools.arch.canary.sim.world;

import kmodel.tools.arch.canary.sim.CanarySimulator;

/** Breaks the sim package rule: a shared world uses the simulation. */
public final class CanaryWorldUsesSimulator {
    private CanaryWorldUsesSimulator() {
    }

    public static long latency() {
        return CanarySimulator.run();
    }
}
