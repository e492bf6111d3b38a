package io.ironloop.runtime.internal.state;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

import io.ironloop.IronloopException;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.Completion;

/**
 * The completion record of a job: read at start (rank 0 reads it and tells the others, so every rank gives
 * the same answer) and written by rank 0 when the application completes. Used by the application thread,
 * collectively.
 */
public final class JobCompletion {
    private final ProcessGroup group;
    private final Path folder;
    private final String settingsFingerprint;

    public JobCompletion(ProcessGroup group, Path folder, String settingsFingerprint) {
        this.group = group;
        this.folder = folder;
        this.settingsFingerprint = settingsFingerprint;
    }

    /**
     * The record of an earlier run over the folder under the same settings; with {@code fresh}, rank 0
     * deletes it instead. Collective.
     */
    public Optional<Completion> readAtStart(boolean fresh) {
        byte[] verdict = new byte[0];
        if (group.rank() == 0) {
            try {
                if (fresh) {
                    CompletionFile.delete(folder);
                } else {
                    Optional<Completion> c = CompletionFile.read(folder);
                    if (c.isPresent() && c.get().settingsFingerprint().equals(settingsFingerprint)) {
                        verdict = c.get().result().getBytes(StandardCharsets.UTF_8);
                    }
                }
            } catch (IOException e) {
                throw new IronloopException("cannot remove the completion record in " + folder + ": " + e.getMessage(), e);
            }
        }
        byte[] agreed = group.broadcast(verdict, 0);
        if (agreed.length == 0) {
            return Optional.empty();
        }
        // a rank that cannot see the folder still knows the result rank 0 found
        return CompletionFile.read(folder).or(() -> Optional.of(new Completion(group.jobId(), -1,
                new String(agreed, StandardCharsets.UTF_8), settingsFingerprint, "")));
    }

    /** Rank 0 writes the record, between two barriers so that every rank returns after it exists. Collective. */
    public void write(long iterations, String result) {
        group.barrier();
        if (group.rank() == 0) {
            try {
                CompletionFile.write(folder, new Completion(group.jobId(), iterations, result, settingsFingerprint,
                        Instant.now().toString()));
            } catch (IOException e) {
                throw new IronloopException("cannot write the completion record in " + folder + ": " + e.getMessage(), e);
            }
        }
        group.barrier();
    }
}
