package io.ironloop.cli.launch;

import io.ironloop.config.Units;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A fault the launcher injects into a run, each at most once per run: a real signal to a rank's JVM.
 * Parsed from {@code --fail RANK@ITER[,…]} and {@code --preempt RANK@SECONDS[,…]}.
 */
public sealed interface Fault {

    /** The rank that receives the signal. */
    int rank();

    /** The option spelling, for messages, e.g. {@code --fail 1@3}. */
    String describe();

    /**
     * SIGKILL to a rank when it reports reaching an iteration (in the first attempt that reaches it).
     *
     * @param rank the rank
     * @param iteration the iteration, as the application reports it
     */
    record KillAtIteration(int rank, long iteration) implements Fault {
        /**
         * @throws IllegalArgumentException if rank or iteration is negative
         */
        public KillAtIteration {
            if (rank < 0 || iteration < 0) {
                throw new IllegalArgumentException("--fail " + rank + "@" + iteration
                        + ": rank and iteration must not be negative");
            }
        }

        @Override
        public String describe() {
            return "--fail " + rank + "@" + iteration;
        }
    }

    /**
     * SIGTERM to a rank a delay after the job started (if the rank is between attempts then, as soon as
     * the next attempt has started it).
     *
     * @param rank the rank
     * @param after the delay from the job's start
     */
    record Preemption(int rank, Duration after) implements Fault {
        /**
         * @throws IllegalArgumentException if rank or delay is negative
         */
        public Preemption {
            if (rank < 0 || after.isNegative()) {
                throw new IllegalArgumentException("--preempt " + rank + "@" + after
                        + ": rank and delay must not be negative");
            }
        }

        @Override
        public String describe() {
            return "--preempt " + rank + "@" + Units.formatDuration(after);
        }
    }

    /**
     * Parses {@code RANK@ITER[,RANK@ITER…]}.
     *
     * @throws IllegalArgumentException naming the bad item
     */
    static List<KillAtIteration> parseKills(String text) {
        List<KillAtIteration> out = new ArrayList<>();
        for (String item : items("--fail", text, "RANK@ITER, e.g. 1@3")) {
            String[] p = item.split("@", -1);
            out.add(new KillAtIteration(integer("--fail", item, p[0]), number("--fail", item, p[1])));
        }
        return out;
    }

    /**
     * Parses {@code RANK@SECONDS[,RANK@SECONDS…]}; the delay accepts units ({@code 1.5}, {@code 500ms}, {@code 2m}).
     *
     * @throws IllegalArgumentException naming the bad item
     */
    static List<Preemption> parsePreemptions(String text) {
        List<Preemption> out = new ArrayList<>();
        for (String item : items("--preempt", text, "RANK@SECONDS, e.g. 0@5")) {
            String[] p = item.split("@", -1);
            Duration after;
            try {
                after = Units.parseDuration(p[1]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--preempt " + item + ": " + e.getMessage(), e);
            }
            out.add(new Preemption(integer("--preempt", item, p[0]), after));
        }
        return out;
    }

    private static List<String> items(String option, String text, String form) {
        List<String> out = new ArrayList<>();
        for (String raw : text.split(",", -1)) {
            String item = raw.strip();
            if (item.split("@", -1).length != 2) {
                throw new IllegalArgumentException(option + " '" + raw + "': expected " + form);
            }
            out.add(item);
        }
        return out;
    }

    private static int integer(String option, String item, String text) {
        long v = number(option, item, text);
        if (v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(option + " " + item + ": rank " + text + " is too large");
        }
        return (int) v;
    }

    private static long number(String option, String item, String text) {
        try {
            long v = Long.parseLong(text.strip());
            if (v < 0) {
                throw new IllegalArgumentException(option + " " + item + ": '" + text + "' must not be negative");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " " + item + ": '" + text + "' is not a whole number", e);
        }
    }
}
