package io.ironloop.runtime.internal.state;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ironloop.IronloopException;
import io.ironloop.core.AtomicFile;
import io.ironloop.core.level.JobRecords;
import io.ironloop.core.level.RemoteLevel;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.Completion;

/**
 * The completion record of a job: read at start (rank 0 reads it and tells the others, so every rank gives
 * the same answer) and written by rank 0 when the application completes. Rank 0 also copies it to the remote
 * levels ({@link JobRecords}), and a start whose folder lacks it brings it back from the nearest level that has it,
 * so a restart on a fresh machine restoring from a shared directory or an object store sees the job as complete.
 * Used by the application thread, collectively.
 */
public final class JobCompletion {
    private static final Logger LOG = LoggerFactory.getLogger(JobCompletion.class);
    private final ProcessGroup group;
    private final Path folder;
    private final String settingsFingerprint;
    private final List<RemoteLevel> levels;

    /** @param levels the remote levels the record is copied to and brought back from, nearest first */
    public JobCompletion(ProcessGroup group, Path folder, String settingsFingerprint, List<RemoteLevel> levels) {
        this.group = group;
        this.folder = folder;
        this.settingsFingerprint = settingsFingerprint;
        this.levels = List.copyOf(levels);
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
                    JobRecords.delete(levels, CompletionFile.NAME);
                } else {
                    bringBack();
                    Optional<Completion> c = CompletionFile.read(folder);
                    if (c.isPresent() && c.get().settingsFingerprint().equals(settingsFingerprint)) {
                        verdict = c.get().result().getBytes(StandardCharsets.UTF_8);
                    }
                }
            } catch (IOException e) {
                throw new IronloopException("cannot remove or bring back the completion record in " + folder + ": " + e.getMessage(), e);
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

    /** Copies the record from the nearest remote level that holds it when the folder lacks it. */
    private void bringBack() throws IOException {
        if (levels.isEmpty() || Files.exists(folder.resolve(CompletionFile.NAME))) {
            return;
        }
        Optional<JobRecords.Fetched> f = JobRecords.fetch(levels, CompletionFile.NAME);
        if (f.isPresent()) {
            Files.createDirectories(folder);
            AtomicFile.replace(folder.resolve(CompletionFile.NAME), f.get().bytes());
            LOG.info("{} lacks the completion record: brought it back from level '{}'", folder, f.get().level());
        }
    }

    /** Rank 0 writes the record, between two barriers so that every rank returns after it exists. Collective. */
    public void write(long iterations, String result) {
        group.barrier();
        if (group.rank() == 0) {
            try {
                CompletionFile.write(folder, new Completion(group.jobId(), iterations, result, settingsFingerprint,
                        Instant.now().toString()));
                if (!levels.isEmpty()) {
                    List<String> on = JobRecords.publish(levels, CompletionFile.NAME, Files.readAllBytes(folder.resolve(CompletionFile.NAME)));
                    LOG.info("completion record copied to the remote levels {}", on);
                }
            } catch (IOException e) {
                throw new IronloopException("cannot write the completion record in " + folder + ": " + e.getMessage(), e);
            }
        }
        group.barrier();
    }
}
