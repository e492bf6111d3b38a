package io.ironloop.config;

/** The kinds of value a {@link ParameterKey} holds, with the form each accepts in files and on the command line. */
public enum ValueType {
    /** {@code true} or {@code false}. */
    BOOLEAN("bool"),
    /** A whole number. */
    INTEGER("int"),
    /** A decimal number. */
    DECIMAL("number"),
    /** A duration with a unit ({@code 40s}, {@code 250ms}); a bare number is seconds. */
    DURATION("duration"),
    /** A size with a unit ({@code 512MiB}); a bare number is bytes. */
    SIZE("size"),
    /** Free text. */
    STRING("string"),
    /** A file-system path. */
    PATH("path"),
    /** One of a fixed set of words. */
    CHOICE("choice"),
    /**
     * When a checkpoint level saves: a whole number (every N-th chance it gets), a duration with a unit
     * ({@code 30s}), {@code adaptive} (Young/Daly) or {@code never}; parsed by the layer that defines the key.
     */
    SCHEDULE("schedule"),
    /** A JSON object whose presence switches a feature on; its fields are keys of their own. */
    OBJECT("object");

    private final String label;

    ValueType(String label) {
        this.label = label;
    }

    /** The short name used in the documentation table. */
    public String label() {
        return label;
    }
}
