package io.ironloop.sites;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the protector processes a test starts print: {@code NAME.out} (the {@code listening} line and the events of
 * {@link SiteProtectorMain}) and {@code NAME.err} (its log) in one folder.
 */
record ProtectorOutput(Path dir) {
    String out(String name) throws IOException {
        return Files.readString(dir.resolve(name + ".out"), StandardCharsets.UTF_8);
    }

    String err(String name) throws IOException {
        return Files.readString(dir.resolve(name + ".err"), StandardCharsets.UTF_8);
    }

    /** Waits until {@code name}'s standard output holds {@code text}; fails with both its outputs otherwise. */
    void waitFor(String name, String text, long millis) throws Exception {
        long deadline = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < deadline) {
            if (out(name).contains(text)) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError(name + " did not print '" + text + "' within " + millis + " ms; it printed:\n" + out(name)
                + "\nstderr:\n" + err(name));
    }
}
