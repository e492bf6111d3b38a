package io.ironloop.format;

/** The element type of a saved entry; every multi-byte type is stored little-endian. */
public enum ElementType {
    /** One byte per element, 0 or 1. */
    BOOLEAN(1, false),
    /** Signed 8-bit integers. */
    BYTE(1, false),
    /** Signed 16-bit integers. */
    SHORT(2, false),
    /** UTF-16 code units. */
    CHAR(2, false),
    /** Signed 32-bit integers. */
    INT(4, false),
    /** IEEE-754 binary32. */
    FLOAT(4, true),
    /** Signed 64-bit integers. */
    LONG(8, false),
    /** IEEE-754 binary64. */
    DOUBLE(8, true),
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

    /** Whether elements are IEEE-754 floating-point numbers. */
    public boolean floatingPoint() {
        return floatingPoint;
    }
}
