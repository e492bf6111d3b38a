package io.ironloop.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a directory store lists and cleans in a series' folder. */
class DirectoryStoreTest {
    @TempDir
    Path dir;

    @Test
    void listFilesAndRemoveTemporaries_mixedFolder_listSortedPublishedFilesAndRemoveEveryTemporary() throws Exception {
        Path series = Files.createDirectories(dir.resolve("rank-00002"));
        for (String name : new String[] {"line-000000000010.ilc", "line-000000000002.commit", "line-000000000002.ilc",
                "line-000000000011.ilc.tmp", ".lock", ".hidden.tmp", "notes.tmp"}) {
            Files.writeString(series.resolve(name), name);
        }
        DirectoryStore store = new DirectoryStore(dir);

        assertThat(store.listFiles("rank-00002")).containsExactly("rank-00002/line-000000000002.commit",
                "rank-00002/line-000000000002.ilc", "rank-00002/line-000000000010.ilc");
        assertThat(store.removeTemporaries("rank-00002")).isEqualTo(3);
        try (var left = Files.list(series)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("line-000000000010.ilc",
                    "line-000000000002.commit", "line-000000000002.ilc", ".lock");
        }
        assertThat(store.listFiles("rank-00007")).isEmpty();
        assertThat(store.removeTemporaries("rank-00007")).isZero();
    }
}
