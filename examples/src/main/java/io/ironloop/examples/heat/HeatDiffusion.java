package io.ironloop.examples.heat;

import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.CheckpointPolicy;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.LongCell;
import io.ironloop.core.Store;
import io.ironloop.format.Scope;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A one-process example of the checkpoint engine: explicit 1-D heat diffusion with a deterministic
 * initial field, checkpointed every few steps. Killed at any moment and started again over the same
 * folder, it resumes from the newest complete line and ends with the same result, bit for bit.
 *
 * <p>Usage: {@code HeatDiffusion FOLDER [CELLS] [STEPS] [CHECKPOINT_EVERY]}. Progress goes to standard
 * error ({@code step N}, {@code checkpointed step N}, {@code resumed at step N}); the last standard-output
 * line is {@code result sha256=<hex>}.
 */
public final class HeatDiffusion {
    private HeatDiffusion() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: HeatDiffusion FOLDER [CELLS] [STEPS] [CHECKPOINT_EVERY]");
            System.exit(2);
        }
        Path folder = Path.of(args[0]);
        int cells = args.length > 1 ? Integer.parseInt(args[1]) : 1 << 21;
        int steps = args.length > 2 ? Integer.parseInt(args[2]) : 300;
        int every = args.length > 3 ? Integer.parseInt(args[3]) : 20;
        System.out.println("result sha256=" + run(folder, cells, steps, every));
    }

    /** Runs (or resumes) the simulation and returns the SHA-256 of the final field and step count. */
    public static String run(Path folder, int cells, int steps, int every) throws NoSuchAlgorithmException {
        double[] field = new double[cells];
        double[] next = new double[cells];
        int[] settings = {cells, steps};
        LongCell step = new LongCell(0);
        try (CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(folder))) {
            engine.protect("settings", Scope.SETTINGS, settings);
            engine.protect("step", Scope.GLOBAL, step);
            engine.protect("field", Scope.LOCAL, field);
            if (engine.restore().isPresent()) {
                System.err.println("resumed at step " + step.get());
            } else {
                initialise(field);
            }
            CheckpointPolicy policy = CheckpointPolicy.everyCalls(every);
            while (step.get() < steps) {
                advance(field, next);
                step.set(step.get() + 1);
                System.err.println("step " + step.get());
                if (engine.checkpointIfDue(step.get(), policy)) {
                    engine.awaitDurable();
                    System.err.println("checkpointed step " + step.get());
                }
            }
            engine.awaitDurable();
        }
        return digest(field, step.get());
    }

    static void initialise(double[] field) {
        long x = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < field.length; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            field[i] = (x >>> 11) * 0x1.0p-53 * 100.0;
        }
    }

    static void advance(double[] field, double[] next) {
        int n = field.length;
        next[0] = field[0] + 0.25 * (field[1] - field[0]);
        for (int i = 1; i < n - 1; i++) {
            next[i] = field[i] + 0.25 * (field[i - 1] - 2 * field[i] + field[i + 1]);
        }
        next[n - 1] = field[n - 1] + 0.25 * (field[n - 2] - field[n - 1]);
        System.arraycopy(next, 0, field, 0, n);
    }

    static String digest(double[] field, long steps) throws NoSuchAlgorithmException {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        ByteBuffer b = ByteBuffer.allocate(field.length * 8 + 8).order(ByteOrder.LITTLE_ENDIAN);
        b.asDoubleBuffer().put(field);
        b.position(field.length * 8).putLong(steps).flip();
        sha.update(b);
        return HexFormat.of().formatHex(sha.digest());
    }
}
