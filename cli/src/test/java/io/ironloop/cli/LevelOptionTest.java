package io.ironloop.cli;

import static io.ironloop.cli.KeptCheckpoint.RANK1;
import static io.ironloop.cli.KeptCheckpoint.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.cli.KeptCheckpoint.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store tools' {@code --level L --params FILE}: the level's store as the run's parameters configure it. */
class LevelOptionTest {
    @TempDir
    static Path dir;
    static KeptCheckpoint kept;
    static Path params;

    @BeforeAll
    static void keep() throws Exception {
        kept = KeptCheckpoint.create(dir.resolve("shared"));
        params = dir.resolve("ft.json");
        Files.writeString(params, "{\"FT_FOLDER\": \"" + dir.resolve("local") + "\", \"SHARED_FOLDER\": \"" + kept.root + "\"}");
    }

    @Test
    void ls_levelShared_listsTheSharedDirectoryOfTheParameters() {
        Run r = run("ls", "--level", "shared", "--params", params);

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("store " + kept.root.toAbsolutePath().normalize());
        assertThat(r.out().lines()).filteredOn(l -> l.startsWith(RANK1)).hasSize(2);
    }

    @Test
    void lsLevels_linesOnLocalAndShared_sayWhichLevelsHoldEachIterationAndWhatItSurvives() throws Exception {
        Path local = dir.resolve("local-copy");
        try (var files = Files.walk(kept.root)) {
            for (Path f : files.toList()) {
                Path to = local.resolve(kept.root.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        Files.delete(local.resolve(KeptCheckpoint.commit(RANK1, 2))); // iteration 20 is complete only on the shared level
        Path both = Files.writeString(dir.resolve("levels.json"), "{\"FT_FOLDER\": \"" + local + "\", \"SHARED_FOLDER\": \"" + kept.root
                + "\", \"MEMORY_SCHEME\": \"xor\", \"ERASURE_K\": 3}");

        Run r = run("ls", "--levels", "--params", both);

        assertThat(r.exit()).as(r.err()).isZero();
        java.util.List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("in memory while the job runs (newest snapshot): xor: 1 rank per group of 4 (a whole host when"
                + " the group's members are on different hosts)");
        assertThat(lines.get(2)).matches("20\\s+2\\s+shared\\s+whole hosts");
        assertThat(lines.get(3)).matches("10\\s+2\\s+local,shared\\s+whole hosts");
        assertThat(lines).hasSize(4);

        Run j = run("ls", "--levels", "--params", both, "--json");
        var o = new com.fasterxml.jackson.databind.ObjectMapper().readTree(j.out());
        assertThat(o.get("recoveryLines").get(1).get("levels").toString()).isEqualTo("[\"local\",\"shared\"]");
    }

    @Test
    void lsLevels_withADirectory_isAUsageError() {
        Run r = run("ls", kept.root, "--levels", "--params", params);

        assertThat(r.exit()).isEqualTo(Main.USAGE);
        assertThat(r.err()).contains("--levels reads every level the parameters configure");
    }

    @Test
    void verify_levelShared_checksEveryChunkOfTheLevel() {
        Run r = run("verify", "--level", "shared", "--params", params);

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("under level shared (" + kept.root.toAbsolutePath().normalize() + ")", "every checksum holds");
    }

    @Test
    void inspect_levelSharedWithAName_readsThatLineOfTheLevel() {
        Run r = run("inspect", "--level", "shared", "--params", params, RANK1 + "/line-000000000001");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("file          " + RANK1 + "/line-000000000001.ilc", "iteration     10");
    }

    @Test
    void export_levelSharedWithoutAName_exportsTheNewestCommittedLine() {
        Path out = dir.resolve("exported");
        Run r = run("export", "--format", "npy", "--out", out, "--level", "shared", "--params", params);

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).contains("(iteration 30)");
        assertThat(out.toFile().list()).isNotEmpty().allSatisfy(f -> assertThat(f).endsWith(".npy"));
    }

    @Test
    void inspect_levelWithAPathOutsideTheLevel_isAUsageError() {
        Run r = run("inspect", "--level", "shared", "--params", params, "rank-00000/line-1/x");

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("is not a name inside a level");
    }

    @Test
    void ls_levelNotConfigured_isAUsageErrorNamingTheKey() {
        Run r = run("ls", "--level", "s3", "--params", params);

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("level 's3' is not configured", "S3_URI");
    }

    @Test
    void ls_bothDirAndLevel_isAUsageError() {
        Run r = run("ls", kept.root, "--level", "shared", "--params", params);

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("give either DIR or --level L");
    }
}
