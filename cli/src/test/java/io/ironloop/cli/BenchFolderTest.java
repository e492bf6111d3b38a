package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link BenchCommand#measureIn}: the benches' scratch folder, the one given or a temporary one removed afterwards. */
class BenchFolderTest {
    @TempDir
    Path dir;

    @Test
    void measureIn_noFolderGiven_aTemporaryOneRemovedAfterwards_evenWhenTheBenchFails() throws Exception {
        AtomicReference<Path> used = new AtomicReference<>();
        Map<String, Object> figures = BenchCommand.measureIn(null, "probe", folder -> {
            used.set(folder);
            Files.writeString(folder.resolve("line.ilc"), "data");
            return Map.of("figure", 1.0);
        });
        assertThat(figures).containsEntry("figure", 1.0);
        assertThat(used.get().getFileName().toString()).startsWith("ironloop-bench-probe");
        assertThat(used.get()).doesNotExist();

        assertThatThrownBy(() -> BenchCommand.measureIn(null, "probe", folder -> {
            used.set(folder);
            Files.writeString(folder.resolve("line.ilc"), "data");
            throw new IllegalArgumentException("bad size");
        })).isInstanceOf(IllegalArgumentException.class).hasMessage("bad size");
        assertThat(used.get()).doesNotExist();
    }

    @Test
    void measureIn_folderGiven_createdAndKept() throws Exception {
        Path given = dir.resolve("a/b");
        BenchCommand.measureIn(given, "probe", folder -> {
            assertThat(folder).isEqualTo(given);
            Files.writeString(folder.resolve("line.ilc"), "data");
            return Map.of();
        });
        assertThat(given.resolve("line.ilc")).hasContent("data");
    }
}
