package io.ironloop.format;

/** The element type of a saved entry; every multi-byte type is stored little-endian. */
public enum ElementType {
    BOOLEAN(1, false), BYTE(1, false), SHORT(2, false), CHAR(2, false), INT(4, false), FLOAT(4, true),
    LONG(8, false), DOUBLE(8, true),
    /** Bytes whose meaning only the application knows (a user entity's state, a direct buffer). */
    OPAQUE(1, false);

    private final int width;
    private final boolean floatingPoint;

    ElementType(int width, boolean floatingPoint) {
        this.width = width;
        this.floatingPoint = floatingPoint;
    }

    /** Bytes per element. */
    public int width() {
        return width;
    }

    public boolean floatingPoint() {
        return floatingPoint;
    }
}
