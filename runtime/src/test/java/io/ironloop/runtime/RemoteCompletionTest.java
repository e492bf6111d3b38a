package io.ironloop.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ironloop.config.Parameters;
import io.ironloop.core.level.JobRecords;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.internal.state.CompletionFile;

/** The completion record on the remote levels: a fresh machine restoring from the shared directory sees the job as complete. */
class RemoteCompletionTest {
    @TempDir
    Path dir;

    private Optional<Completion> run(Path folder, boolean fresh, boolean complete) {
        Parameters p = Parameters.load(RuntimeKeys.TABLE, null, Map.of(), Map.of("FT_FOLDER", folder.toString(), "SHARED_FOLDER",
                dir.resolve("shared").toString(), "FRESH", Boolean.toString(fresh)));
        try (InJvmCluster cluster = InJvmCluster.open("job", 1);
             Ironloop ft = Ironloop.builder().parameters(p).joinWith(l -> cluster.group(0)).start()) {
            Optional<Completion> before = ft.completion();
            if (complete) {
                ft.registerGlobal("global", new double[100]);
                ft.saveGlobal();
                ft.complete("checksum=42");
            }
            return before;
        }
    }

    @Test
    void complete_withASharedLevel_aFreshFolderSeesTheJobCompleteUntilAFreshStart() throws Exception {
        Path shared = dir.resolve("shared").resolve(JobRecords.SERIES).resolve(CompletionFile.NAME);
        assertThat(run(dir.resolve("first-machine"), false, true)).isEmpty();
        assertThat(shared).as("copied to the shared level").exists();

        Optional<Completion> seen = run(dir.resolve("fresh-machine"), false, false);

        assertThat(seen).as("brought back from the shared level").isPresent();
        assertThat(seen.get().result()).isEqualTo("checksum=42");
        assertThat(dir.resolve("fresh-machine").resolve(CompletionFile.NAME)).exists();

        assertThat(run(dir.resolve("another-machine"), true, false)).as("FRESH=true starts over").isEmpty();
        assertThat(Files.exists(shared)).as("and removes the level's record").isFalse();
        assertThat(run(dir.resolve("yet-another-machine"), false, false)).isEmpty();
    }
}
