package io.ironloop;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of Ironloop this code was built as (the Maven project version, e.g. {@code 0.1.0-SNAPSHOT}),
 * recorded by the build in {@code io/ironloop/version.properties}. It is what {@code ironloop --version}
 * prints and what every checkpoint's manifest records as its writer. Thread-safe (read once).
 */
public final class IronloopVersion {
    private static final String VERSION = load();

    private IronloopVersion() {
    }

    /** This build's version, never null. */
    public static String current() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = IronloopVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("io/ironloop/version.properties is missing from the ironloop-base jar: rebuild it");
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version");
            if (v == null || v.isBlank() || v.startsWith("${")) {
                throw new IllegalStateException("io/ironloop/version.properties holds no build version ('" + v
                        + "'): it was not filtered by the build; rebuild ironloop-base with Maven");
            }
            return v.trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read io/ironloop/version.properties from the ironloop-base jar", e);
        }
    }
}
