package io.ironloop.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Results of the demo's failure-free reference runs, one small file per key: the SHA-256 of the app, its
 * arguments, the number of ranks, the settings in effect and the build (every class path entry's name, size and
 * modification time, and the Java version). Any rebuild therefore misses the cache. Files are written
 * atomically; an unreadable or malformed entry is a miss.
 */
final class DemoReferenceCache {
    private static final Pattern SHA = Pattern.compile("sha256=([0-9a-f]{64})");

    private final Path dir;

    DemoReferenceCache(Path dir) {
        this.dir = dir;
    }

    /** {@code $XDG_CACHE_HOME/ironloop/demo-references}, else {@code ~/.cache/ironloop/demo-references}. */
    static Path defaultDirectory() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("ironloop").resolve("demo-references");
    }

    Path directory() {
        return dir;
    }

    /** The key for a run: every line goes into the hash. */
    static String key(List<String> description, List<String> classpath) throws IOException {
        MessageDigest sha = sha256();
        for (String line : description) {
            sha.update((line + "\n").getBytes(StandardCharsets.UTF_8));
        }
        sha.update(("java=" + System.getProperty("java.version") + "\n").getBytes(StandardCharsets.UTF_8));
        for (String entry : classpath) {
            Path p = Path.of(entry);
            if (Files.isDirectory(p)) {
                try (Stream<Path> files = Files.walk(p)) {
                    for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                        stamp(sha, p.relativize(f).toString(), f);
                    }
                }
            } else if (Files.isRegularFile(p)) {
                stamp(sha, p.toAbsolutePath().toString(), p);
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /** The cached reference result (64 hex digits) for {@code key}, if any. */
    Optional<String> find(String key) {
        try {
            Matcher m = SHA.matcher(Files.readString(file(key)));
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Records a reference result; failures to write only cost a later run its shortcut. */
    void store(String key, String sha256, String what) throws IOException {
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, key, ".tmp");
        Files.writeString(tmp, "sha256=" + sha256 + "\ncreated=" + Instant.now() + "\nrun=" + what + "\n");
        Files.move(tmp, file(key), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    Path file(String key) {
        return dir.resolve(key + ".ref");
    }

    private static void stamp(MessageDigest sha, String name, Path f) throws IOException {
        sha.update((name + File.pathSeparator + Files.size(f) + File.pathSeparator + Files.getLastModifiedTime(f).toMillis() + "\n")
                .getBytes(StandardCharsets.UTF_8));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }
}
