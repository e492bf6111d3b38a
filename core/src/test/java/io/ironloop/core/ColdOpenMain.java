package io.ironloop.core;

import io.ironloop.format.Scope;
import java.nio.file.Path;

/**
 * Child of {@link ColdOpenTest}: what an application does in a new JVM before its first checkpoint — opens an engine
 * on a new folder, protects settings, a counter and an array, runs checks of a policy that never fires, closes.
 */
public final class ColdOpenMain {
    private ColdOpenMain() {
    }

    public static void main(String[] args) {
        double[] field = new double[4096];
        LongCell step = new LongCell(0);
        try (CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(Path.of(args[0])))) {
            engine.protect("settings", Scope.SETTINGS, new int[] {field.length});
            engine.protect("step", Scope.GLOBAL, step);
            engine.protect("field", Scope.LOCAL, field);
            CheckpointPolicy policy = CheckpointPolicy.never();
            while (step.get() < 100) {
                field[(int) step.get()] += 1;
                step.set(step.get() + 1);
                engine.checkpointIfDue(step.get(), policy);
            }
            engine.awaitDurable();
        }
        System.out.println("closed after " + step.get() + " steps");
    }
}
