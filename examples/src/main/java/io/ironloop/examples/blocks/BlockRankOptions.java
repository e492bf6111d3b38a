package io.ironloop.examples.blocks;

import java.util.OptionalLong;

/**
 * The command line of a block example's rank and reference programs: {@code [test|demo] [--steps N]
 * [--pace-ms MS] [--die-at WORLD_RANK:PHASE@N[+MS]]...}.
 *
 * @param size the size preset, {@code test} or {@code demo} (default)
 * @param steps the number of time steps instead of the preset's, if given (changes the result)
 * @param paceMillis a pause after every step, to rehearse failures at chosen moments (never changes a result bit)
 * @param deaths rehearsed deaths: ranks that kill themselves at chosen moments ({@link RehearsedDeath})
 */
public record BlockRankOptions(String size, OptionalLong steps, long paceMillis, java.util.List<RehearsedDeath> deaths) {
    /** The usage text after the program name. */
    public static final String USAGE = "[test|demo] [--steps N] [--pace-ms MS] [--die-at " + RehearsedDeath.SYNTAX + "]...";

    /** Checks the fields. */
    public BlockRankOptions {
        if (!size.equals("test") && !size.equals("demo")) {
            throw new IllegalArgumentException("size must be test or demo, not '" + size + "'");
        }
        if (steps.isPresent() && steps.getAsLong() < 1) {
            throw new IllegalArgumentException("--steps must be at least 1, not " + steps.getAsLong());
        }
        deaths = java.util.List.copyOf(deaths);
        if (paceMillis < 0) {
            throw new IllegalArgumentException("--pace-ms must not be negative, not " + paceMillis);
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
        long pace = 0;
        java.util.List<RehearsedDeath> deaths = new java.util.ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "test", "demo" -> {
                    if (size != null) {
                        throw new IllegalArgumentException("give one size, test or demo");
                    }
                    size = a;
                }
                case "--steps" -> steps = OptionalLong.of(number(a, value(args, ++i, a)));
                case "--pace-ms" -> pace = number(a, value(args, ++i, a));
                case "--die-at" -> deaths.add(RehearsedDeath.parse(value(args, ++i, a)));
                default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
            }
        }
        return new BlockRankOptions(size == null ? "demo" : size, steps, pace, deaths);
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
