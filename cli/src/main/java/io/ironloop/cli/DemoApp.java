package io.ironloop.cli;

import java.util.List;

/**
 * The applications {@code ironloop demo} can run, each a rank main class of the examples module that prints
 * {@code result sha256=<hex>} on rank 0, with its arguments per size and the faults of a demo without
 * {@code --fail}/{@code --preempt}. Those faults are scheduled by progress (an iteration), never by wall-clock
 * time, so that each fires however fast or loaded the machine is: a SIGTERM at an early iteration, then a
 * SIGKILL at a later one, each in its own attempt.
 */
enum DemoApp {
    /** The full-waveform inversion ({@code io.ironloop.examples.fwi.FwiRank}). */
    FWI("io.ironloop.examples.fwi.FwiRank", "full-waveform inversion") {
        @Override
        List<String> arguments(String size) {
            return List.of(size);
        }

        @Override
        String describe(String size) {
            return size.equals("test") ? "48 x 32 cells, 6 shots, 5 iterations" : "160 x 80 cells, 16 shots, 6 iterations";
        }

        @Override
        List<String> defaultFails(int ranks, String size) {
            return List.of(victim(ranks, 1) + "@" + (size.equals("test") ? 4 : 5));
        }

        @Override
        List<String> defaultPreempts(int ranks, String size) {
            return List.of(victim(ranks, 2) + "@it2");
        }
    },
    /** DeLIA's quick-start program ({@code io.ironloop.examples.quickstart.QuickstartRank}). */
    QUICKSTART("io.ironloop.examples.quickstart.QuickstartRank", "DeLIA's quick-start loop (Listing 8)") {
        @Override
        List<String> arguments(String size) {
            // the pause per iteration stands for computation
            return size.equals("test") ? List.of("2000", "12", "300") : List.of("100000", "20", "500");
        }

        @Override
        String describe(String size) {
            List<String> a = arguments(size);
            return a.get(0) + " values per rank, " + a.get(1) + " iterations of " + a.get(2) + " ms";
        }

        @Override
        List<String> defaultFails(int ranks, String size) {
            return List.of(victim(ranks, 1) + "@" + (size.equals("test") ? 8 : 14));
        }

        @Override
        List<String> defaultPreempts(int ranks, String size) {
            return List.of(victim(ranks, 2) + "@it" + (size.equals("test") ? 4 : 6));
        }
    };

    private final String mainClass;
    private final String title;

    DemoApp(String mainClass, String title) {
        this.mainClass = mainClass;
        this.title = title;
    }

    String mainClass() {
        return mainClass;
    }

    String title() {
        return title;
    }

    /** The rank arguments for {@code test} or {@code demo} size. */
    abstract List<String> arguments(String size);

    /** The problem size in words. */
    abstract String describe(String size);

    /** {@code --fail} items of a demo given no faults. */
    abstract List<String> defaultFails(int ranks, String size);

    /** {@code --preempt} items of a demo given no faults. */
    abstract List<String> defaultPreempts(int ranks, String size);

    private static int victim(int ranks, int preferred) {
        return Math.min(preferred, ranks - 1);
    }
}
