package io.ironloop.runtime.internal.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ironloop.IronloopException;
import io.ironloop.runtime.Completion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompletionFileTest {
    @TempDir
    Path folder;

    @Test
    void read_writtenRecord_roundTrips() throws Exception {
        Completion c = new Completion("job-1", 40, "checksum=7", "5ca7", "2026-11-23T12:00:00Z");
        CompletionFile.write(folder, c);

        assertThat(CompletionFile.read(folder)).contains(c);
    }

    @Test
    void read_noRecord_isEmpty() {
        assertThat(CompletionFile.read(folder)).isEmpty();
    }

    @Test
    void read_fifoInPlaceOfTheRecord_refusedAtOnceInsteadOfBlocking() throws Exception {
        Path record = folder.resolve(CompletionFile.NAME);
        Process mk = new ProcessBuilder("mkfifo", record.toString()).start();
        assumeTrue(mk.waitFor() == 0, "mkfifo is not available");

        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThatThrownBy(() -> CompletionFile.read(folder))
                .isInstanceOf(IronloopException.class)
                .hasMessageContaining(record.toString()).hasMessageContaining("named pipe (FIFO)"));
    }

    @Test
    void read_linkInPlaceOfTheRecord_isNotFollowed() throws Exception {
        Path elsewhere = Files.writeString(folder.resolve("other.json"), "{}");
        Files.createSymbolicLink(folder.resolve(CompletionFile.NAME), elsewhere);

        assertThatThrownBy(() -> CompletionFile.read(folder)).isInstanceOf(IronloopException.class)
                .hasMessageContaining("symbolic link");
    }
}
