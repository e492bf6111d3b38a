package io.ironloop.benchmarks.runtime;

import io.ironloop.runtime.Ironloop;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.trigger.TriggerEvent;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The rank of {@code ironloop bench preempt}: holds SIZE bytes of local state (double arrays of pseudo-random,
 * non-zero values), publishes it, reports {@value #READY} to the launcher and waits for the termination signal.
 * With {@code TRIGGER_SIGNAL} true, the signal makes the runtime save the published state durably and exit
 * with 143; the bench's parent times that from its {@code kill} to the commit record on disk.
 *
 * <p>Usage: {@code PreemptRank SIZE_BYTES [WAIT_SECONDS]} under {@code ironloop run -n 1}. Events sent to the
 * launcher: {@value #READY} (fields {@code size_bytes}, {@code publish_s}: the copy into the published state)
 * and, when the save is durable, {@value #PROFILE} ({@code signal_at_us}: when the handler ran, microseconds
 * since the epoch; {@code staging_s}: the engine's copy into staging; {@code durable_s}: from the start of that
 * copy to the line being committed and durable; {@code action_s}: the whole trigger action). A rank that gets
 * no signal within WAIT_SECONDS (default 600) exits with status 3.
 */
public final class PreemptRank {
    /** The event a ready rank sends. */
    public static final String READY = "preempt-ready";
    /** The event with the timings of the save, sent once it is durable. */
    public static final String PROFILE = "preempt-profile";
    /** Bytes per registered array. */
    public static final int ARRAY_BYTES = 64 << 20;

    private PreemptRank() {
    }

    /**
     * Entry point.
     *
     * @param args SIZE_BYTES (a positive multiple of 8) and optionally WAIT_SECONDS
     * @throws InterruptedException if interrupted while waiting for the signal
     */
    public static void main(String[] args) throws InterruptedException {
        long size = Long.parseLong(args[0]);
        long waitSeconds = args.length > 1 ? Long.parseLong(args[1]) : 600;
        if (size < 8 || size % 8 != 0) {
            throw new IllegalArgumentException("SIZE_BYTES must be a positive multiple of 8: " + size);
        }
        List<double[]> arrays = new ArrayList<>();
        long seed = 0x5DEECE66DL;
        for (long left = size; left > 0; left -= ARRAY_BYTES) {
            double[] a = new double[(int) (Math.min(left, ARRAY_BYTES) / 8)];
            seed = fill(a, seed);
            arrays.add(a);
        }
        Map<String, Object> profile = new ConcurrentHashMap<>();
        Consumer<RuntimeEvent> timings = event -> {
            if (event instanceof RuntimeEvent.Snapshotted s && s.kind() == RuntimeEvent.StateKind.LOCAL) {
                profile.put("staging_s", seconds(s.blocking()));
            } else if (event instanceof RuntimeEvent.Saved s && s.kind() == RuntimeEvent.StateKind.LOCAL) {
                profile.put("durable_s", seconds(s.sinceSnapshot()));
            }
        };
        AtomicReference<Ironloop> runtime = new AtomicReference<>();
        try (Ironloop ft = Ironloop.builder().settings(Map.of("bench", "preempt", "size", size)).subscribe(timings)
                .triggerListener(event -> {
                    if (event instanceof TriggerEvent.SignalReceived s) {
                        profile.put("signal_at_us", ChronoUnit.MICROS.between(Instant.EPOCH, s.at()));
                    } else if (event instanceof TriggerEvent.ActionCompleted c && runtime.get() != null) {
                        profile.put("action_s", seconds(c.elapsed()));
                        runtime.get().report(PROFILE, new LinkedHashMap<>(profile));
                    }
                }).start()) {
            runtime.set(ft);
            for (int i = 0; i < arrays.size(); i++) {
                ft.registerLocal("state-" + i, arrays.get(i));
            }
            long t0 = System.nanoTime();
            ft.publishLocal();
            double publish = (System.nanoTime() - t0) / 1e9;
            ft.report(READY, Map.of("size_bytes", size, "publish_s", publish));
            Thread.sleep(waitSeconds * 1000);
            System.err.println("PreemptRank: no termination signal within " + waitSeconds + " s; giving up");
            System.exit(3);
        }
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    /** Fills with xorshift doubles in [1, 2): never zero, so zero elision saves nothing. */
    private static long fill(double[] a, long seed) {
        long x = seed;
        for (int i = 0; i < a.length; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            a[i] = 1.0 + (x >>> 11) * 0x1.0p-53;
        }
        return x;
    }
}
