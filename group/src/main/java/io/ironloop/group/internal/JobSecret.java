package io.ironloop.group.internal;

import io.ironloop.ConfigurationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/** Reads the job secret from a file that only its owner may read. */
public final class JobSecret {
    private static final int MIN_BYTES = 16;

    private JobSecret() {
    }

    /**
     * Reads the secret.
     *
     * @throws ConfigurationException if the file is missing, readable by group or others, or shorter than 16 bytes
     */
    public static byte[] read(Path file) {
        try {
            try {
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
                Set<PosixFilePermission> open = EnumSet.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
                        PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);
                open.retainAll(perms);
                if (!open.isEmpty()) {
                    throw new ConfigurationException("job secret file " + file + " is accessible by others (" + open
                            + "): make it readable only by its owner, e.g. chmod 600 " + file);
                }
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system (Windows): its ACLs are the operator's responsibility
            }
            byte[] secret = Files.readAllBytes(file);
            if (secret.length < MIN_BYTES) {
                throw new ConfigurationException("job secret file " + file + " holds " + secret.length + " bytes; use at least " + MIN_BYTES
                        + " random bytes, e.g. head -c 32 /dev/urandom > " + file);
            }
            return secret;
        } catch (NoSuchFileException e) {
            throw new ConfigurationException("job secret file " + file + " does not exist (SECRET_FILE / IRONLOOP_SECRET_FILE)", e);
        } catch (IOException e) {
            throw new ConfigurationException("cannot read job secret file " + file + ": " + e, e);
        }
    }
}
