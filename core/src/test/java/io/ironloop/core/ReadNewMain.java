package io.ironloop.core;

import java.nio.file.Path;

/**
 * The child of {@link CheckpointEngineTest}'s heap test: reads the newest line of {@code args[0]} as new
 * arrays and prints what happened on one line.
 */
public final class ReadNewMain {
    private ReadNewMain() {
    }

    public static void main(String[] args) {
        try (CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(Path.of(args[0])))) {
            System.out.println("read " + e.read().orElseThrow().names());
        } catch (IllegalStateException x) {
            System.out.println("refused: " + x.getMessage());
        }
    }
}
