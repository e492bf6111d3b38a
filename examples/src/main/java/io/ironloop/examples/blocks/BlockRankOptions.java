package io.ironloop.examples.blocks;

import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The command line of a block example's rank and reference programs: {@code [test|demo|bench] [--steps N]
 * [--cells N] [--pace-ms MS] [--die-at WORLD_RANK:PHASE@N[+MS]]...}.
 *
 * @param size the size preset, {@code test}, {@code demo} (default) or {@code bench} (the heat example only: iterations
 *     of about 100 ms per rank or more, for {@code ironloop bench overhead})
 * @param steps the number of time steps instead of the preset's, if given (changes the result)
 * @param cells the heat example only: cells along each block's edge instead of the preset's, if given (changes the
 *     result)
 * @param paceMillis a pause after every step, to rehearse failures at chosen moments (never changes a result bit)
 * @param deaths rehearsed deaths: ranks that kill themselves at chosen moments ({@link RehearsedDeath})
 */
public record BlockRankOptions(String size, OptionalLong steps, OptionalInt cells, long paceMillis,
        java.util.List<RehearsedDeath> deaths) {
    /** The usage text after the program name. */
    public static final String USAGE = "[test|demo|bench (heat only)] [--steps N] [--cells N (heat only)] [--pace-ms MS] [--die-at " + RehearsedDeath.SYNTAX + "]...";

    /** Checks the fields. */
    public BlockRankOptions {
        if (!size.equals("test") && !size.equals("demo") && !size.equals("bench")) {
            throw new IllegalArgumentException("size must be test, demo or bench, not '" + size + "'");
        }
        if (steps.isPresent() && steps.getAsLong() < 1) {
            throw new IllegalArgumentException("--steps must be at least 1, not " + steps.getAsLong());
        }
        if (cells.isPresent() && cells.getAsInt() < 1) {
            throw new IllegalArgumentException("--cells must be at least 1, not " + cells.getAsInt());
        }
        deaths = java.util.List.copyOf(deaths);
        if (paceMillis < 0) {
            throw new IllegalArgumentException("--pace-ms must not be negative, not " + paceMillis);
        }
    }

    /** Options without {@code --cells} (the preset's blocks). */
    public BlockRankOptions(String size, OptionalLong steps, long paceMillis, java.util.List<RehearsedDeath> deaths) {
        this(size, steps, OptionalInt.empty(), paceMillis, deaths);
    }

    /**
     * Refuses {@code --cells} for an example whose blocks are fixed by its preset.
     *
     * @throws IllegalArgumentException if {@code --cells} was given
     */
    public void refuseCells(String example) {
        if (cells.isPresent()) {
            throw new IllegalArgumentException("--cells applies to the heat example only, not " + example);
        }
    }

    /**
     * Parses {@code args}.
     *
     * @throws IllegalArgumentException naming the argument that is wrong
     */
    public static BlockRankOptions parse(String... args) {
        String size = null;
        OptionalLong steps = OptionalLong.empty();
        OptionalInt cells = OptionalInt.empty();
        long pace = 0;
        java.util.List<RehearsedDeath> deaths = new java.util.ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "test", "demo", "bench" -> {
                    if (size != null) {
                        throw new IllegalArgumentException("give one size, test, demo or bench");
                    }
                    size = a;
                }
                case "--steps" -> steps = OptionalLong.of(number(a, value(args, ++i, a)));
                case "--cells" -> cells = OptionalInt.of(Math.toIntExact(Math.min(Integer.MAX_VALUE, number(a, value(args, ++i, a)))));
                case "--pace-ms" -> pace = number(a, value(args, ++i, a));
                case "--die-at" -> deaths.add(RehearsedDeath.parse(value(args, ++i, a)));
                default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
            }
        }
        return new BlockRankOptions(size == null ? "demo" : size, steps, cells, pace, deaths);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static long number(String option, String text) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " '" + text + "' is not a whole number", e);
        }
    }
}
