package io.ironloop.group.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.ConfigurationException;
import io.ironloop.group.GroupConfig;
import io.ironloop.group.jgroups.LocalJob;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One secret, one derivation, one check: the launcher and the group read a secret file through
 * {@link JobSecret} alone, derive the same keys from the same bytes, and refuse the same unsafe files.
 */
class JobSecretTest {
    private static final String HEX = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    private static final Set<PosixFilePermission> OPEN_BITS = EnumSet.complementOf(
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE));

    @TempDir
    Path dir;

    private Path secretFile(String name, byte[] content) throws Exception {
        Path f = dir.resolve(name);
        Files.write(f, content);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        return f;
    }

    @Test
    void load_launcherFileWithNewlineAndOperatorFileWithout_deriveTheSameKeys() throws Exception {
        JobSecret created = JobSecret.create(dir, "job");
        assertThat(Files.readString(created.file())).endsWith("\n");
        JobSecret bare = JobSecret.load(secretFile("bare", Files.readString(created.file()).strip().getBytes(StandardCharsets.US_ASCII)));
        JobSecret crlf = JobSecret.load(secretFile("crlf", ("  " + Files.readString(created.file()).strip() + "\r\n").getBytes(StandardCharsets.US_ASCII)));
        JobSecret reread = JobSecret.load(created.file());
        for (String purpose : new String[] {"ironloop-handshake-v2", "ironloop-auth-v1", "ironloop-encrypt-v1"}) {
            assertThat(bare.derive(purpose)).as(purpose).isEqualTo(created.derive(purpose)).isEqualTo(crlf.derive(purpose))
                    .isEqualTo(reread.derive(purpose)).hasSize(32);
        }
        assertThat(bare.hmacHex("hello")).isEqualTo(created.hmacHex("hello"));
        assertThat(created.derive("ironloop-handshake-v2")).isNotEqualTo(created.derive("ironloop-auth-v1"));
    }

    @Test
    void derive_isHmacSha256OfThePurposeUnderTheTrimmedSecret() throws Exception {
        JobSecret s = JobSecret.load(secretFile("hex", (HEX + "\n").getBytes(StandardCharsets.US_ASCII)));
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(HEX.getBytes(StandardCharsets.US_ASCII), "HmacSHA256"));
        assertThat(s.derive("ironloop-handshake-v2")).isEqualTo(mac.doFinal("ironloop-handshake-v2".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void load_binarySecretAsTheDocsCreateIt_isAcceptedAndDistinctFromItsHex() throws Exception {
        byte[] random = new byte[32];
        new Random(13).nextBytes(random);
        random[0] = (byte) 0xC3; // not valid UTF-8 on its own: the secret is bytes, not text
        random[1] = (byte) 0x28;
        JobSecret binary = JobSecret.load(secretFile("binary", random));
        JobSecret hex = JobSecret.load(secretFile("hexOfIt", HexFormat.of().formatHex(random).getBytes(StandardCharsets.US_ASCII)));
        assertThat(binary.derive("p")).isNotEqualTo(hex.derive("p"));
        assertThat(binary.toString()).doesNotContain(HexFormat.of().formatHex(random));
    }

    @Test
    void load_everyPermissionSetWithGroupOrOtherBits_refusedWithTheModeAndChmod() throws Exception {
        Path f = secretFile("modes", HEX.getBytes(StandardCharsets.US_ASCII));
        for (int mode = 0; mode < 512; mode++) {
            Set<PosixFilePermission> perms = permissions(mode);
            perms.add(PosixFilePermission.OWNER_READ); // the owner must be able to read it at all
            Files.setPosixFilePermissions(f, perms);
            boolean open = perms.stream().anyMatch(OPEN_BITS::contains);
            if (open) {
                assertThatThrownBy(() -> JobSecret.load(f)).as(PosixFilePermissions.toString(perms))
                        .isInstanceOf(ConfigurationException.class)
                        .hasMessageContaining(f.toString()).hasMessageContaining(PosixFilePermissions.toString(perms))
                        .hasMessageContaining("chmod 600");
            } else {
                assertThat(JobSecret.load(f).derive("p")).as(PosixFilePermissions.toString(perms)).hasSize(32);
            }
        }
    }

    @Test
    void groupJoin_unsafeSecretFile_refusedBeforeJoiningWithTheSameMessage() throws Exception {
        Random rnd = new Random(10);
        for (int i = 0; i < 8; i++) {
            Path f = secretFile("join" + i, HEX.getBytes(StandardCharsets.US_ASCII));
            Set<PosixFilePermission> perms = permissions(rnd.nextInt(512));
            perms.add(PosixFilePermission.OWNER_READ);
            perms.add(OPEN_BITS.stream().skip(rnd.nextInt(OPEN_BITS.size())).findFirst().orElseThrow());
            Files.setPosixFilePermissions(f, perms);
            String expected = messageOf(() -> JobSecret.load(f));
            String job = "unsafe" + i;
            assertThatThrownBy(() -> LocalJob.join(0, FreePorts.allocate(1), job, f, GroupConfig.builder()))
                    .as(PosixFilePermissions.toString(perms)).isInstanceOf(ConfigurationException.class).hasMessage(expected);
        }
    }

    @Test
    void load_fileSystemWithoutPosixPermissions_refusedNotSkipped() throws Exception {
        Path zip = dir.resolve("secrets.zip");
        try (FileSystem fs = FileSystems.newFileSystem(URI.create("jar:" + zip.toUri()), Map.of("create", "true"))) {
            Path f = fs.getPath("/secret");
            Files.write(f, HEX.getBytes(StandardCharsets.US_ASCII));
            assertThatThrownBy(() -> JobSecret.load(f)).isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("without POSIX permissions").hasMessageContaining("chmod 600");
        }
    }

    @Test
    void load_missingDirectoryOrShort_refusedNamingTheFile() throws Exception {
        assertThatThrownBy(() -> JobSecret.load(dir.resolve("none"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("does not exist").hasMessageContaining("none");
        assertThatThrownBy(() -> JobSecret.load(dir)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("not a regular file");
        Path padded = secretFile("padded", ("\n   " + "0123456789abcde" + "  \n\n").getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> JobSecret.load(padded)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("holds 15 bytes").hasMessageContaining("at least 16");
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> perms = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] all = PosixFilePermission.values(); // OWNER_READ ... OTHERS_EXECUTE
        for (int bit = 0; bit < 9; bit++) {
            if ((mode & (1 << bit)) != 0) {
                perms.add(all[bit]);
            }
        }
        return perms;
    }

    private static String messageOf(Runnable r) {
        try {
            r.run();
        } catch (ConfigurationException e) {
            return e.getMessage();
        }
        throw new AssertionError("not refused");
    }
}
