package io.ironloop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FoldersTest {
    @TempDir
    Path dir;

    @Test
    void deleteTree_nestedFilesAndFolders_allGoneTheParentStays() throws Exception {
        Path root = dir.resolve("scratch");
        Files.createDirectories(root.resolve("a/b"));
        Files.writeString(root.resolve("a/b/line.ilc"), "data");
        Files.writeString(root.resolve("top.txt"), "data");

        Folders.deleteTree(root);

        assertThat(root).doesNotExist();
        assertThat(dir).isDirectory();
    }

    @Test
    void deleteTree_missingFolder_doesNothing() throws Exception {
        Folders.deleteTree(dir.resolve("never-made"));

        assertThat(dir).isEmptyDirectory();
    }
}
