package io.ironloop.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One documented parameter: its name (as written in parameter files), type, unit, default and meaning,
 * and how its text is parsed and checked. Keys of an {@link ValueType#OBJECT} section are named
 * {@code SECTION.FIELD}; their environment variable is {@code IRONLOOP_SECTION_FIELD}.
 *
 * <p>Instances are immutable and usually held in {@code static final} fields of a layer's key class.
 *
 * @param <T> the parsed value type
 */
public final class ParameterKey<T> {
    private final String name;
    private final ValueType type;
    private final String unit;
    private final T defaultValue;
    private final String defaultText;
    private final String meaning;
    private final Function<String, T> parser;

    private ParameterKey(String name, ValueType type, String unit, T defaultValue, String defaultText,
                         String meaning, Function<String, T> parser) {
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
        this.unit = Objects.requireNonNull(unit, "unit");
        this.defaultValue = defaultValue;
        this.defaultText = Objects.requireNonNull(defaultText, "defaultText");
        this.meaning = Objects.requireNonNull(meaning, "meaning");
        this.parser = Objects.requireNonNull(parser, "parser");
        if (!name.matches("[A-Z][A-Z0-9_]*(\\.[A-Z][A-Z0-9_]*)?")) {
            throw new IllegalArgumentException("parameter names are UPPER_SNAKE_CASE, optionally SECTION.FIELD: " + name);
        }
    }

    /** A yes/no switch. */
    public static ParameterKey<Boolean> bool(String name, boolean defaultValue, String meaning) {
        return new ParameterKey<>(name, ValueType.BOOLEAN, "", defaultValue, Boolean.toString(defaultValue), meaning,
                ParameterKey::parseBoolean);
    }

    /** A whole number at least {@code min}; {@code defaultValue} null means "off" (unset). */
    public static ParameterKey<Long> integer(String name, Long defaultValue, long min, String meaning) {
        return new ParameterKey<>(name, ValueType.INTEGER, "", defaultValue, defaultValue == null ? "off" : defaultValue.toString(),
                meaning, text -> {
                    long v;
                    try {
                        v = Long.parseLong(text.trim());
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("'" + text + "' is not a whole number", e);
                    }
                    if (v < min) {
                        throw new IllegalArgumentException(v + " is below the minimum " + min);
                    }
                    return v;
                });
    }

    /** A decimal number greater than zero. */
    public static ParameterKey<Double> positiveDecimal(String name, Double defaultValue, String meaning) {
        return new ParameterKey<>(name, ValueType.DECIMAL, "", defaultValue, defaultValue == null ? "off" : defaultValue.toString(),
                meaning, text -> {
                    double v;
                    try {
                        v = Double.parseDouble(text.trim());
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("'" + text + "' is not a number", e);
                    }
                    if (!(v > 0) || Double.isInfinite(v)) {
                        throw new IllegalArgumentException(v + " is not a finite number greater than zero");
                    }
                    return v;
                });
    }

    /** A duration (bare numbers are seconds) at least {@code min}; {@code defaultValue} null means "off". */
    public static ParameterKey<Duration> duration(String name, Duration defaultValue, Duration min, String meaning) {
        return new ParameterKey<>(name, ValueType.DURATION, "s", defaultValue,
                defaultValue == null ? "off" : Units.formatDuration(defaultValue), meaning, text -> {
                    Duration d = Units.parseDuration(text);
                    if (d.compareTo(min) < 0) {
                        throw new IllegalArgumentException(Units.formatDuration(d) + " is below the minimum " + Units.formatDuration(min));
                    }
                    return d;
                });
    }

    /** A size in bytes within [{@code min}, {@code max}]. */
    public static ParameterKey<Long> size(String name, long defaultValue, long min, long max, String meaning) {
        return new ParameterKey<>(name, ValueType.SIZE, "bytes", defaultValue, Units.formatSize(defaultValue), meaning, text -> {
            long v = Units.parseSize(text);
            if (v < min || v > max) {
                throw new IllegalArgumentException(Units.formatSize(v) + " is outside " + Units.formatSize(min) + " .. " + Units.formatSize(max));
            }
            return v;
        });
    }

    /** Free text; {@code defaultValue} null means unset. */
    public static ParameterKey<String> string(String name, String defaultValue, String meaning) {
        return new ParameterKey<>(name, ValueType.STRING, "", defaultValue, defaultValue == null ? "unset" : defaultValue, meaning, text -> {
            if (text.isBlank()) {
                throw new IllegalArgumentException("the value is empty");
            }
            return text;
        });
    }

    /** A path; relative paths are kept relative and resolved by the caller against its working directory. */
    public static ParameterKey<Path> path(String name, String defaultValue, String meaning) {
        Function<String, Path> parse = text -> {
            if (text.isBlank()) {
                throw new IllegalArgumentException("the path is empty");
            }
            return Path.of(text);
        };
        return new ParameterKey<>(name, ValueType.PATH, "", defaultValue == null ? null : parse.apply(defaultValue),
                defaultValue == null ? "unset" : defaultValue, meaning, parse);
    }

    /** One of the constants of {@code type}, written in any case. */
    public static <E extends Enum<E>> ParameterKey<E> choice(String name, Class<E> type, E defaultValue, String meaning) {
        List<String> names = java.util.Arrays.stream(type.getEnumConstants()).map(Enum::name).toList();
        return new ParameterKey<>(name, ValueType.CHOICE, String.join("|", names), defaultValue,
                defaultValue == null ? "unset" : defaultValue.name(), meaning, text -> {
                    for (E e : type.getEnumConstants()) {
                        if (e.name().equalsIgnoreCase(text.trim())) {
                            return e;
                        }
                    }
                    throw new IllegalArgumentException("'" + text + "' is not one of " + String.join(", ", names));
                });
    }

    /**
     * A key whose values a higher layer parses (a {@link ValueType#SCHEDULE}, say): {@code parser} turns the
     * text into a value or throws {@link IllegalArgumentException} saying what is wrong.
     *
     * @param unit the forms or unit shown in the documentation table (may be empty)
     * @param defaultValue the default, or null when the key is off by default
     * @param defaultText how the default is shown in the documentation table
     */
    public static <T> ParameterKey<T> parsed(String name, ValueType type, String unit, T defaultValue, String defaultText,
                                             String meaning, Function<String, T> parser) {
        return new ParameterKey<>(name, type, unit, defaultValue, defaultText, meaning, parser);
    }

    /** A section whose presence switches a feature on; its fields are keys named {@code name.FIELD}. */
    public static ParameterKey<Boolean> section(String name, String meaning) {
        return new ParameterKey<>(name, ValueType.OBJECT, "", null, "absent", meaning, ParameterKey::parseBoolean);
    }

    /** Returns a key like this one whose parsed value must also satisfy {@code check}, described by {@code rule}. */
    public ParameterKey<T> requiring(Predicate<T> check, String rule) {
        Function<String, T> base = parser;
        return new ParameterKey<>(name, type, unit, defaultValue, defaultText, meaning, text -> {
            T v = base.apply(text);
            if (!check.test(v)) {
                throw new IllegalArgumentException("'" + text + "' " + rule);
            }
            return v;
        });
    }

    /**
     * Parses a value of this key.
     *
     * @throws IllegalArgumentException with a message saying what is wrong with the text
     */
    public T parse(String text) {
        return parser.apply(Objects.requireNonNull(text, "text"));
    }

    public String name() {
        return name;
    }

    public ValueType type() {
        return type;
    }

    /** The unit a bare number is read in, the accepted words of a choice, or empty. */
    public String unit() {
        return unit;
    }

    /** The default value, or null when the key is off or unset by default. */
    public T defaultValue() {
        return defaultValue;
    }

    public String defaultText() {
        return defaultText;
    }

    public String meaning() {
        return meaning;
    }

    /** The environment variable that overrides this key: {@code IRONLOOP_} followed by the name with dots as underscores. */
    public String environmentVariable() {
        return "IRONLOOP_" + name.replace('.', '_');
    }

    /** The section this key belongs to ({@code A} for {@code A.B}), or null for a top-level key. */
    public String section() {
        int dot = name.indexOf('.');
        return dot < 0 ? null : name.substring(0, dot);
    }

    @Override
    public String toString() {
        return name;
    }

    private static Boolean parseBoolean(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1" -> Boolean.TRUE;
            case "false", "no", "off", "0" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("'" + text + "' is not true or false");
        };
    }
}
