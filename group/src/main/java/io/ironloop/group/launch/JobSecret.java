package io.ironloop.group.launch;

import io.ironloop.ConfigurationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The job secret that authenticates a job's processes to each other and to the launcher. Immutable and
 * thread-safe; {@link #toString()} never shows the key.
 *
 * <p>The launcher creates one per job ({@link #create}: {@value #GENERATED_BYTES} random bytes written as
 * lowercase hex to a file with permissions {@code rw-------}) or the operator supplies a file. Either way
 * the key is the file's content without surrounding whitespace, as UTF-8 bytes, at least
 * {@value #MIN_LENGTH} characters. A file that group or others may read, write or execute is refused.
 */
public final class JobSecret {
    /** Random bytes in a generated secret. */
    public static final int GENERATED_BYTES = 32;
    /** Minimum length of a secret, in characters. */
    public static final int MIN_LENGTH = 16;

    private static final String HMAC = "HmacSHA256";
    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final Set<PosixFilePermission> OWNER_BITS = EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private final Path file;
    private final byte[] key;

    private JobSecret(Path file, byte[] key) {
        this.file = file;
        this.key = key;
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
     *     group or others, or shorter than {@value #MIN_LENGTH} characters
     */
    public static JobSecret load(Path file) {
        Objects.requireNonNull(file, "file");
        if (!Files.isRegularFile(file)) {
            throw new ConfigurationException("secret file " + file + " does not exist or is not a regular file");
        }
        PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (posix != null) {
            Set<PosixFilePermission> perms;
            try {
                perms = posix.readAttributes().permissions();
            } catch (IOException e) {
                throw new ConfigurationException("cannot read the permissions of secret file " + file + ": " + e, e);
            }
            if (!OWNER_BITS.containsAll(perms)) {
                throw new ConfigurationException("secret file " + file + " has permissions "
                        + PosixFilePermissions.toString(perms) + ": group and others must have no access;"
                        + " run: chmod 600 " + file);
            }
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new ConfigurationException("cannot read secret file " + file + ": " + e, e);
        }
        if (text.length() < MIN_LENGTH) {
            throw new ConfigurationException("secret file " + file + " holds " + text.length()
                    + " characters; a job secret needs at least " + MIN_LENGTH
                    + " (for example: openssl rand -hex 32 > FILE; chmod 600 FILE)");
        }
        return new JobSecret(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /** The file the secret was read from or written to. */
    public Path file() {
        return file;
    }

    /**
     * The HMAC-SHA256 of a message under this secret.
     *
     * @param message the message (UTF-8)
     * @return the MAC as 64 lowercase hex digits
     */
    public String hmacHex(String message) {
        return HexFormat.of().formatHex(hmac(message.getBytes(StandardCharsets.UTF_8)));
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
        return MessageDigest.isEqual(hmac(message.getBytes(StandardCharsets.UTF_8)), given);
    }

    private byte[] hmac(byte[] message) {
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
