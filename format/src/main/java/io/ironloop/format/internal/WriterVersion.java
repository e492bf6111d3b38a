package io.ironloop.format.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The Ironloop version recorded as {@code writerVersion} in every manifest (from the build). */
public final class WriterVersion {
    private static final String VERSION = load();

    private WriterVersion() {
    }

    /** This build's version, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = WriterVersion.class.getResourceAsStream("writer.properties")) {
            if (in == null) {
                throw new IllegalStateException("writer.properties is missing from the ironloop-format jar");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read writer.properties from the ironloop-format jar", e);
        }
    }
}
