package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/ironloop run --secret-file} goes through the same {@code JobSecret} check as the ranks' group: a
 * secret file that others may read is a usage error naming the file and the fix, before any rank starts.
 */
class RunSecretFileTest {
    @TempDir
    Path dir;

    @Test
    void run_worldReadableSecretFile_refusedWithExit2AndChmodAdvice() throws Exception {
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "0123456789abcdef0123456789abcdef\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r--r--"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                "run", "-n", "1", "--secret-file", secret.toString(), "io.ironloop.examples.quickstart.QuickstartRank");
        String stderr = err.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(stderr).isEqualTo(Main.USAGE);
        assertThat(stderr).contains(secret.toString(), "rw-r--r--", "chmod 600");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
