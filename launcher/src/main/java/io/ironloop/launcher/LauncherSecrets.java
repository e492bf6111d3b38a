package io.ironloop.launcher;

import io.ironloop.group.launch.JobSecret;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The job-secret files a launcher generates in the temporary directory, and their removal.
 *
 * <p>A generated secret is named {@code ironloop-launcher-<pid>-<job>-<random>.secret}, {@code <pid>} being the
 * launcher's own process id. The launcher deletes it when the job ends and from its shutdown hook (SIGTERM,
 * SIGINT, {@code System.exit}); a {@code kill -9} of the launcher runs neither, so every launcher first
 * {@linkplain #sweep sweeps} the directory: a secret file with this naming, owned by the current user, whose
 * launcher process is no longer alive, is deleted. Files of live launchers, of other users and of any other
 * naming (an operator's {@code --secret-file}) are never touched. Not thread-safe; one launcher uses one.
 */
final class LauncherSecrets {
    /** The name of every secret a launcher generates; group 1 is the launcher's process id. */
    static final Pattern NAME = Pattern.compile("ironloop-launcher-([0-9]{1,19})-.+\\.secret");

    private final Path directory;
    private final LauncherLog log;

    LauncherSecrets(Path directory, LauncherLog log) {
        this.directory = directory;
        this.log = log;
    }

    /** The secret directory of this JVM: {@code java.io.tmpdir}. */
    static Path defaultDirectory() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /**
     * Creates a new secret for {@code jobId}, named after this launcher's process id.
     *
     * @throws LaunchException if the file cannot be created
     */
    JobSecret create(String jobId) {
        try {
            return JobSecret.create(directory, "ironloop-launcher-" + ProcessHandle.current().pid() + "-" + jobId);
        } catch (IOException e) {
            throw new LaunchException("cannot create the job secret in " + directory + ": " + e.getMessage()
                    + " (set java.io.tmpdir, or give one with --secret-file)", e);
        }
    }

    /** Deletes a secret this launcher created; a failure is logged (naming the file), never thrown. */
    void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.warn("could not delete the job secret " + file + ": " + e.getMessage() + "; delete it by hand");
        }
    }

    /**
     * Deletes the secrets left by launchers of this user that died without cleaning up (kill -9).
     *
     * @return the files deleted
     */
    List<Path> sweep() {
        List<Path> removed = new ArrayList<>();
        UserPrincipal me;
        try {
            me = currentUser();
        } catch (IOException | UnsupportedOperationException e) {
            log.warn("could not look for stale job secrets in " + directory + ": " + e.getMessage());
            return removed;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "ironloop-launcher-*.secret")) {
            for (Path file : files) {
                Optional<Long> pid = launcherPid(file);
                if (pid.isPresent() && ProcessHandle.of(pid.get()).isEmpty() && ownedBy(file, me)) {
                    delete(file);
                    removed.add(file);
                }
            }
        } catch (IOException e) {
            log.warn("could not look for stale job secrets in " + directory + ": " + e.getMessage());
        }
        if (!removed.isEmpty()) {
            log.info("removed " + removed.size() + " job secret(s) left in " + directory + " by launchers that are no longer running");
        }
        return removed;
    }

    /** The process id in a generated secret's name, or empty for any other name. */
    static Optional<Long> launcherPid(Path file) {
        Matcher m = NAME.matcher(file.getFileName().toString());
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(m.group(1)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** This process's effective user, as the file system sees it: the owner of a file it creates. */
    private UserPrincipal currentUser() throws IOException {
        Path probe = Files.createTempFile(directory, "ironloop-owner-", ".probe");
        try {
            return Files.getOwner(probe, LinkOption.NOFOLLOW_LINKS);
        } finally {
            Files.deleteIfExists(probe);
        }
    }

    private static boolean ownedBy(Path file, UserPrincipal me) {
        try {
            return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && Files.getOwner(file, LinkOption.NOFOLLOW_LINKS).equals(me);
        } catch (IOException e) {
            return false;
        }
    }
}
