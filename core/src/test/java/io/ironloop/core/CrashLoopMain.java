package io.ironloop.core;

import io.ironloop.format.Scope;
import java.nio.file.Path;

/**
 * The child of {@link CrashTest}: restores, then checkpoints a deterministic state forever (until killed).
 * The state of iteration {@code i} is {@link #expected(long, int)}.
 */
public final class CrashLoopMain {
    static final int LENGTH = 1 << 20;

    private CrashLoopMain() {
    }

    static double expected(long iteration, int index) {
        return iteration * 1e7 + index;
    }

    public static void main(String[] args) {
        double[] state = new double[LENGTH];
        LongCell iteration = new LongCell(0);
        try (CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().retainLines(2).build(), Store.directory(Path.of(args[0])))) {
            e.protect("iteration", Scope.GLOBAL, iteration);
            e.protect("state", Scope.LOCAL, state);
            e.restore();
            System.out.println("ready " + iteration.get());
            System.out.flush();
            for (long it = iteration.get() + 1; ; it++) {
                for (int i = 0; i < LENGTH; i++) {
                    state[i] = expected(it, i);
                }
                iteration.set(it);
                e.checkpoint(it);
            }
        }
    }
}
