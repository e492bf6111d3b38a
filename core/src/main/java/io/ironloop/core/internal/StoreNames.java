package io.ironloop.core.internal;

/** The rules for store-relative names ({@code series/file}) shared by every store. */
final class StoreNames {
    static final String TEMP_SUFFIX = ".tmp";
    static final String LOCK_FILE = ".lock";
    private static final String PART = "[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}";

    private StoreNames() {
    }

    /** Checks that {@code name} is {@code series/file} with safe parts, and returns it. */
    static String check(String name) {
        if (name == null || !name.matches(PART + "/" + PART) || name.endsWith(TEMP_SUFFIX)) {
            throw new IllegalArgumentException("store names are 'series/file' made of letters, digits, '.', '_' and '-': '" + name + "'");
        }
        return name;
    }

    static String checkSeries(String series) {
        if (series == null || !series.matches(PART)) {
            throw new IllegalArgumentException("series names are letters, digits, '.', '_' and '-': '" + series + "'");
        }
        return series;
    }

    static String series(String name) {
        return name.substring(0, name.indexOf('/'));
    }
}
