package io.ironloop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Scratch folders: the one way Ironloop's commands, benchmarks and launcher remove a folder they made. */
public final class Folders {
    private Folders() {
    }

    /**
     * Deletes {@code root} and everything under it, if it exists; symbolic links below it are deleted, not followed.
     *
     * @throws IOException if something cannot be deleted (what was deleted before stays deleted)
     */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
