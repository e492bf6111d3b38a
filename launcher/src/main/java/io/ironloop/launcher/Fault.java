package io.ironloop.launcher;

import io.ironloop.config.Units;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A fault the launcher injects into a run, each at most once per run: a real signal to a rank's JVM.
 * Parsed from {@code --fail RANK@ITER[,…]} and {@code --preempt RANK@SECONDS|RANK@itITER[,…]}. A fault
 * scheduled by progress ({@link AtIteration}) fires on every machine, however fast or loaded; one
 * scheduled by wall-clock time ({@link Preemption}) misses a run that ends first.
 */
public sealed interface Fault {

    /** The rank that receives the signal. */
    int rank();

    /** The option spelling, for messages, e.g. {@code --fail 1@3}. */
    String describe();

    /**
     * A fault that strikes a rank when it reports reaching an iteration, in the first attempt that reaches
     * it: the rank waits there for the launcher, so the signal arrives exactly at that iteration.
     */
    sealed interface AtIteration extends Fault permits KillAtIteration, PreemptAtIteration {
        /** The iteration, as the application reports it. */
        long iteration();

        /** The signal sent: {@code SIGKILL} or {@code SIGTERM}. */
        String signalName();
    }

    /**
     * SIGKILL to a rank when it reports reaching an iteration (in the first attempt that reaches it).
     *
     * @param rank the rank
     * @param iteration the iteration, as the application reports it
     */
    record KillAtIteration(int rank, long iteration) implements AtIteration {
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

        @Override
        public String signalName() {
            return "SIGKILL";
        }
    }

    /**
     * SIGTERM to a rank when it reports reaching an iteration (in the first attempt that reaches it): a
     * preemption scheduled by progress, {@code --preempt RANK@itITER}.
     *
     * @param rank the rank
     * @param iteration the iteration, as the application reports it
     */
    record PreemptAtIteration(int rank, long iteration) implements AtIteration {
        /**
         * @throws IllegalArgumentException if rank or iteration is negative
         */
        public PreemptAtIteration {
            if (rank < 0 || iteration < 0) {
                throw new IllegalArgumentException("--preempt " + rank + "@" + ITERATION_PREFIX + iteration
                        + ": rank and iteration must not be negative");
            }
        }

        @Override
        public String describe() {
            return "--preempt " + rank + "@" + ITERATION_PREFIX + iteration;
        }

        @Override
        public String signalName() {
            return "SIGTERM";
        }
    }

    /** Marks a {@code --preempt} item scheduled by iteration: {@code 2@it3}. */
    String ITERATION_PREFIX = "it";

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
     * Parses {@code --preempt} items, each {@code RANK@itITER} (SIGTERM when the rank reaches iteration ITER,
     * e.g. {@code 2@it3}) or {@code RANK@SECONDS} (SIGTERM a delay after the job started; the delay accepts
     * units: {@code 1.5}, {@code 500ms}, {@code 2m}).
     *
     * @return {@link PreemptAtIteration}s and {@link Preemption}s, in the order given
     * @throws IllegalArgumentException naming the bad item
     */
    static List<Fault> parsePreemptions(String text) {
        List<Fault> out = new ArrayList<>();
        for (String item : items("--preempt", text, "RANK@itITER or RANK@SECONDS, e.g. 2@it3 or 0@5")) {
            String[] p = item.split("@", -1);
            String when = p[1].strip();
            if (when.startsWith(ITERATION_PREFIX)) {
                out.add(new PreemptAtIteration(integer("--preempt", item, p[0]),
                        number("--preempt", item, when.substring(ITERATION_PREFIX.length()))));
                continue;
            }
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
