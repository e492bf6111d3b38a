package io.ironloop.group.launch;

import io.ironloop.ConfigurationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The job secret that authenticates a job's processes to each other (the group's connection handshake, its
 * join token and its encryption key) and to the launcher (the control protocol's hello). The one place that
 * reads a secret file, checks who may read it, and derives keys from it. Immutable and thread-safe;
 * {@link #toString()} never shows the key.
 *
 * <p>The launcher creates one per job ({@link #create}: {@value #GENERATED_BYTES} random bytes written as
 * lowercase hex to a file with permissions {@code rw-------}) or the operator supplies a file (for example
 * {@code head -c 32 /dev/urandom > FILE; chmod 600 FILE}). Either way the secret is the file's bytes without
 * leading and trailing ASCII whitespace (so a trailing newline does not matter, and binary secrets work), at
 * least {@value #MIN_LENGTH} bytes. Every key is {@link #derive derived} from it as HMAC-SHA256(secret,
 * purpose); the secret itself is used for nothing else.
 *
 * <p>A file that is not a regular file, that group or others may read, write or execute, or whose file
 * system cannot tell (no POSIX permissions) is refused, by every reader alike, with a
 * {@link ConfigurationException} naming the file, what is wrong and what to do; no check is skipped.
 */
public final class JobSecret {
    /** Random bytes in a generated secret. */
    public static final int GENERATED_BYTES = 32;
    /** Minimum length of a secret, in bytes (after surrounding whitespace is removed). */
    public static final int MIN_LENGTH = 16;

    private static final String HMAC = "HmacSHA256";
    /** Purpose of the key that authenticates the launcher's control protocol. */
    private static final String CONTROL_PURPOSE = "ironloop-control-v1";
    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final Set<PosixFilePermission> OWNER_BITS = EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private final Path file;
    private final byte[] secret;
    private final byte[] controlKey;

    private JobSecret(Path file, byte[] secret) {
        this.file = file;
        this.secret = secret;
        this.controlKey = derive(CONTROL_PURPOSE);
    }

    /**
     * Creates a new random secret in a new file with owner-only permissions.
     *
     * @param directory where to create the file
     * @param prefix the file name's prefix (for example the job id)
     * @return the secret
     * @throws IOException if the file cannot be created or written
     */
    public static JobSecret create(Path directory, String prefix) throws IOException {
        byte[] random = new byte[GENERATED_BYTES];
        new SecureRandom().nextBytes(random);
        String hex = HexFormat.of().formatHex(random);
        Path file = Files.createTempFile(directory, prefix + "-", ".secret",
                PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        Files.writeString(file, hex + "\n", StandardCharsets.US_ASCII);
        return new JobSecret(file, hex.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Reads a secret file, refusing one that others could read.
     *
     * @param file the secret file
     * @return the secret
     * @throws ConfigurationException if the file is missing, not a regular file, unreadable, accessible to
     *     group or others, on a file system without POSIX permissions, or shorter than {@value #MIN_LENGTH}
     *     bytes
     */
    public static JobSecret load(Path file) {
        Objects.requireNonNull(file, "file");
        if (!Files.isRegularFile(file)) {
            throw refuse(file, Files.exists(file, LinkOption.NOFOLLOW_LINKS) ? "is not a regular file" : "does not exist", null);
        }
        PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (posix == null) {
            throw refuse(file, "is on a file system without POSIX permissions (" + file.getFileSystem().provider().getScheme()
                    + "), so nobody can tell who else may read it: keep the job secret on a POSIX file system"
                    + " (local disk, NFS, tmpfs) with chmod 600", null);
        }
        Set<PosixFilePermission> perms;
        try {
            perms = posix.readAttributes().permissions();
        } catch (IOException e) {
            throw refuse(file, "has permissions that cannot be read: " + e, e);
        }
        if (!OWNER_BITS.containsAll(perms)) {
            throw refuse(file, "has permissions " + PosixFilePermissions.toString(perms)
                    + ": group and others must have no access; run: chmod 600 " + file, null);
        }
        byte[] bytes;
        try {
            bytes = trim(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            throw refuse(file, "does not exist", e);
        } catch (IOException e) {
            throw refuse(file, "cannot be read: " + e, e);
        }
        if (bytes.length < MIN_LENGTH) {
            throw refuse(file, "holds " + bytes.length + " bytes; a job secret needs at least " + MIN_LENGTH
                    + " (for example: head -c 32 /dev/urandom > FILE; chmod 600 FILE)", null);
        }
        return new JobSecret(file, bytes);
    }

    private static ConfigurationException refuse(Path file, String why, Exception cause) {
        String message = "refusing job secret file " + file + ": it " + why
                + " (SECRET_FILE / IRONLOOP_SECRET_FILE, or bin/ironloop run --secret-file)";
        return cause == null ? new ConfigurationException(message) : new ConfigurationException(message, cause);
    }

    /** {@code b} without leading and trailing ASCII whitespace (space, tab, CR, LF, FF). */
    private static byte[] trim(byte[] b) {
        int from = 0;
        int to = b.length;
        while (from < to && isSpace(b[from])) {
            from++;
        }
        while (to > from && isSpace(b[to - 1])) {
            to--;
        }
        return Arrays.copyOfRange(b, from, to);
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
    }

    /** The file the secret was read from or written to. */
    public Path file() {
        return file;
    }

    /**
     * A key for one purpose: HMAC-SHA256(secret, purpose). Every key of a job comes from here, so every
     * process that reads the same secret file derives the same keys.
     *
     * @param purpose names the use and its version, e.g. {@code ironloop-handshake-v2} (ASCII)
     * @return 32 bytes
     */
    public byte[] derive(String purpose) {
        return hmac(secret, purpose.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The control protocol's MAC of a message: HMAC-SHA256 keyed by {@code derive("ironloop-control-v1")}.
     *
     * @param message the message (UTF-8)
     * @return the MAC as 64 lowercase hex digits
     */
    public String hmacHex(String message) {
        return HexFormat.of().formatHex(hmac(controlKey, message.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Checks a MAC in time independent of where it differs.
     *
     * @param message the message (UTF-8)
     * @param macHex the MAC to check, as hex; null or malformed is simply wrong
     * @return whether {@code macHex} is this secret's MAC of {@code message}
     */
    public boolean verify(String message, String macHex) {
        if (macHex == null) {
            return false;
        }
        byte[] given;
        try {
            given = HexFormat.of().parseHex(macHex);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(hmac(controlKey, message.getBytes(StandardCharsets.UTF_8)), given);
    }

    private static byte[] hmac(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return mac.doFinal(message);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(HMAC + " is not available in this JVM", e);
        }
    }

    @Override
    public String toString() {
        return "JobSecret[" + file + "]";
    }
}
