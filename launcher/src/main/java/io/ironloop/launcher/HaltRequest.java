package io.ironloop.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;

/**
 * A request to stop the job running over a checkpoint folder cleanly, as SCR's {@code scr_halt} does:
 * {@code ironloop halt DIR} leaves it in {@code DIR/}{@value #FILE_NAME}, and the launcher running a job whose
 * {@code FT_FOLDER} is {@code DIR} polls for it every {@link #POLL} and then stops the ranks the way a
 * termination signal does (they save their published state and exit), does not relaunch them, removes the
 * request and exits 0. Running the same command again resumes the job from its checkpoints.
 *
 * <p>The file holds one line: {@code now}, {@code after-next-checkpoint}, or {@code at INSTANT} (ISO-8601). It
 * is written atomically (temporary file, then rename), so the launcher never reads half a request.
 *
 * @param mode when to stop
 * @param at the instant, for {@link Mode#AT}
 */
public record HaltRequest(Mode mode, Optional<Instant> at) {
    /** The request's file name in the checkpoint folder. */
    public static final String FILE_NAME = "ironloop.halt";
    /** How often the launcher looks for a request. */
    public static final java.time.Duration POLL = java.time.Duration.ofSeconds(1);

    /** When a halted job stops. */
    public enum Mode {
        /** At once: the ranks get SIGTERM now. */
        NOW("now"),
        /** Once the next checkpoint of the whole job is committed (a {@code saved} event of level global or disk). */
        AFTER_NEXT_CHECKPOINT("after-next-checkpoint"),
        /** At a given instant. */
        AT("at");

        private final String word;

        Mode(String word) {
            this.word = word;
        }

        /** The word in the file and on the command line. */
        public String word() {
            return word;
        }
    }

    public HaltRequest {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(at, "at");
        if ((mode == Mode.AT) != at.isPresent()) {
            throw new IllegalArgumentException("an instant goes with mode AT, and only with it");
        }
    }

    /** Stop now. */
    public static HaltRequest now() {
        return new HaltRequest(Mode.NOW, Optional.empty());
    }

    /** Stop once the next checkpoint is committed. */
    public static HaltRequest afterNextCheckpoint() {
        return new HaltRequest(Mode.AFTER_NEXT_CHECKPOINT, Optional.empty());
    }

    /** Stop at {@code instant}. */
    public static HaltRequest at(Instant instant) {
        return new HaltRequest(Mode.AT, Optional.of(instant));
    }

    /** The request's file in {@code folder}. */
    public static Path file(Path folder) {
        return folder.resolve(FILE_NAME);
    }

    /** The line in the file. */
    public String line() {
        return mode.word() + at.map(i -> " " + i).orElse("");
    }

    /** For messages: {@code now}, {@code after the next checkpoint}, {@code at 2026-…Z}. */
    public String describe() {
        return switch (mode) {
            case NOW -> "now";
            case AFTER_NEXT_CHECKPOINT -> "after the next checkpoint";
            case AT -> "at " + at.orElseThrow();
        };
    }

    /**
     * Leaves the request in {@code folder}, replacing one that is there.
     *
     * @throws IOException if the folder does not exist or cannot be written
     */
    public void writeTo(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            throw new NoSuchFileException(folder.toString(), null, "not a directory: give the job's FT_FOLDER");
        }
        Path tmp = folder.resolve(FILE_NAME + ".tmp");
        Files.writeString(tmp, line() + "\n", StandardCharsets.UTF_8);
        try {
            Files.move(tmp, file(folder), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file(folder), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * The request in {@code folder}, if there is one.
     *
     * @throws IOException if it cannot be read
     * @throws IllegalArgumentException if it is not a request ({@link #parse})
     */
    public static Optional<HaltRequest> readFrom(Path folder) throws IOException {
        try {
            return Optional.of(parse(Files.readString(file(folder), StandardCharsets.UTF_8)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /**
     * Removes the request from {@code folder}.
     *
     * @return whether there was one
     * @throws IOException if it cannot be removed
     */
    public static boolean removeFrom(Path folder) throws IOException {
        return Files.deleteIfExists(file(folder));
    }

    /**
     * Reads a request's line.
     *
     * @throws IllegalArgumentException naming what is wrong, for anything else
     */
    public static HaltRequest parse(String text) {
        String line = text.strip();
        if (line.equals(Mode.NOW.word())) {
            return now();
        }
        if (line.equals(Mode.AFTER_NEXT_CHECKPOINT.word())) {
            return afterNextCheckpoint();
        }
        if (line.startsWith(Mode.AT.word() + " ")) {
            try {
                return at(Instant.parse(line.substring(3).strip()));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("halt request 'at " + line.substring(3).strip()
                        + "': not an ISO-8601 instant such as 2026-11-24T13:00:00Z", e);
            }
        }
        throw new IllegalArgumentException("not a halt request: '" + line + "' (expected now, after-next-checkpoint or at INSTANT)");
    }
}
