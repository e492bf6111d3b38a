package io.ironloop.runtime.internal.state;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.ironloop.IronloopException;
import io.ironloop.RegularFiles;
import io.ironloop.core.AtomicFile;
import io.ironloop.runtime.Completion;

/**
 * The completion record in the checkpoint folder ({@code complete.json}): written when a run finished,
 * crash-consistently by the engine's {@link AtomicFile} (temporary, fsync, rename, fsync of the folder).
 */
public final class CompletionFile {
    /** File name inside FT_FOLDER. */
    public static final String NAME = "complete.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private CompletionFile() {
    }

    /** The record in {@code folder}, if any. */
    public static Optional<Completion> read(Path folder) {
        Path file = folder.resolve(NAME);
        try {
            try (InputStream in = Channels.newInputStream(RegularFiles.openRead(file))) { // never a FIFO: it would block
                return Optional.of(JSON.readValue(in, Completion.class));
            }
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new IronloopException("cannot read the completion record " + file + ": " + e.getMessage()
                    + "; remove it (the run is then resumed from its checkpoints) or start over with FRESH=true", e);
        }
    }

    /** Writes the record durably, replacing an older one only once the new one is complete ({@link AtomicFile}). */
    public static void write(Path folder, Completion completion) throws IOException {
        AtomicFile.replace(folder.resolve(NAME), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(completion));
    }

    /** Removes the record durably (a fresh start). */
    public static void delete(Path folder) throws IOException {
        AtomicFile.delete(folder.resolve(NAME));
    }
}
