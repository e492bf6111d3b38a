package io.ironloop.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and prints durations ({@code 40s}, {@code 250ms}, {@code 2m}, {@code 1.5h}, {@code 5y} of 365 days; a
 * bare number is seconds, as in DeLIA's parameter files) and sizes ({@code 512MiB}, {@code 4KiB}, {@code 1GB}; a bare
 * number is bytes).
 */
public final class Units {
    private static final Pattern QUANTITY = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)\\s*");

    private Units() {
    }

    /**
     * Parses a duration.
     *
     * @throws IllegalArgumentException if the text is not a non-negative number with a known unit
     */
    public static Duration parseDuration(String text) {
        Matcher m = match(text, "a duration such as 40s, 250ms, 2m or 1h (a bare number is seconds)");
        BigDecimal amount = new BigDecimal(m.group(1));
        BigDecimal nanosPerUnit = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "", "s", "sec", "secs", "second", "seconds" -> BigDecimal.valueOf(1_000_000_000L);
            case "ms" -> BigDecimal.valueOf(1_000_000L);
            case "us" -> BigDecimal.valueOf(1_000L);
            case "ns" -> BigDecimal.ONE;
            case "m", "min", "mins", "minute", "minutes" -> BigDecimal.valueOf(60_000_000_000L);
            case "h", "hour", "hours" -> BigDecimal.valueOf(3_600_000_000_000L);
            case "d", "day", "days" -> BigDecimal.valueOf(86_400_000_000_000L);
            case "y", "year", "years" -> BigDecimal.valueOf(365 * 86_400_000_000_000L);
            default -> throw new IllegalArgumentException("unknown duration unit '" + m.group(2) + "' in '" + text
                    + "': use ns, us, ms, s, m, h, d or y (365 days)");
        };
        try {
            return Duration.ofNanos(amount.multiply(nanosPerUnit).longValueExact());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("duration '" + text + "' is too long or too fine (whole nanoseconds, at most 292 years)", e);
        }
    }

    /**
     * Parses a size in bytes.
     *
     * @throws IllegalArgumentException if the text is not a non-negative number with a known unit, or the
     *     result is not a whole number of bytes that fits in a long
     */
    public static long parseSize(String text) {
        Matcher m = match(text, "a size such as 4096, 64KiB, 512MiB or 1GiB");
        BigDecimal amount = new BigDecimal(m.group(1));
        long unit = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "", "b" -> 1L;
            case "k", "kib" -> 1L << 10;
            case "m", "mib" -> 1L << 20;
            case "g", "gib" -> 1L << 30;
            case "t", "tib" -> 1L << 40;
            case "kb" -> 1_000L;
            case "mb" -> 1_000_000L;
            case "gb" -> 1_000_000_000L;
            case "tb" -> 1_000_000_000_000L;
            default -> throw new IllegalArgumentException("unknown size unit '" + m.group(2) + "' in '" + text
                    + "': use B, KiB, MiB, GiB, TiB (powers of 1024) or KB, MB, GB, TB (powers of 1000)");
        };
        try {
            return amount.multiply(BigDecimal.valueOf(unit)).longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("size '" + text + "' is not a whole number of bytes below 8 EiB", e);
        }
    }

    /** Prints a size with the largest binary unit that divides it exactly ({@code 1048576} prints {@code 1MiB}). */
    public static String formatSize(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = 0;
        long v = bytes;
        while (u < units.length - 1 && v != 0 && v % 1024 == 0) {
            v /= 1024;
            u++;
        }
        return v + units[u];
    }

    /** Prints a duration compactly ({@code 40s}, {@code 250ms}, {@code 1.5s}). */
    public static String formatDuration(Duration d) {
        long nanos = d.toNanos();
        if (nanos != 0 && nanos % 3_600_000_000_000L == 0) {
            return nanos / 3_600_000_000_000L + "h";
        }
        if (nanos != 0 && nanos % 60_000_000_000L == 0) {
            return nanos / 60_000_000_000L + "m";
        }
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + "s";
        }
        if (nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + "ms";
        }
        return BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString() + "s";
    }

    private static Matcher match(String text, String expected) {
        if (text == null) {
            throw new IllegalArgumentException("missing value: expected " + expected);
        }
        Matcher m = QUANTITY.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not " + expected);
        }
        return m;
    }
}
