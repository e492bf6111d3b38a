package io.ironloop.cli;

import static io.ironloop.cli.KeptCheckpoint.RANK0;
import static io.ironloop.cli.KeptCheckpoint.RANK1;
import static io.ironloop.cli.KeptCheckpoint.data;
import static io.ironloop.cli.KeptCheckpoint.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironloop.cli.KeptCheckpoint.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ironloop inspect} on a kept checkpoint. */
class InspectCommandTest {
    @TempDir
    static Path dir;
    static KeptCheckpoint kept;

    @BeforeAll
    static void keep() {
        kept = KeptCheckpoint.create(dir.resolve("store"));
    }

    @Test
    void inspect_differentialCompressedLine_showsManifestEntriesChunkStatsAndSavings() throws Exception {
        Run r = run("inspect", kept.path(data(RANK0, 3)));

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("file          " + data(RANK0, 3) + " (" + Files.size(kept.path(data(RANK0, 3))) + " bytes)")
                .contains("job           local").contains("iteration     30").contains("rank          0 of world size 2")
                .contains("written by ").containsPattern("settings {6}[0-9a-f]{64}").contains("created       ");
        assertThat(r.out().lines()).anySatisfy(l -> assertThat(l.split("\\s+")).startsWith("temperature", "DOUBLE", "[4096]", "LOCAL", "ZSTD",
                "32768"));
        assertThat(r.out().lines()).anySatisfy(l -> assertThat(l.split("\\s+")).startsWith("label", "CHAR"));
        assertThat(r.out().lines()).anySatisfy(l -> assertThat(l.split("\\s+")).startsWith("buffer", "OPAQUE", "[300]"));
        assertThat(r.out().lines()).anySatisfy(l -> assertThat(l.split("\\s+")).startsWith("grid/u", "DOUBLE", "[64]", "GLOBAL"));
        assertThat(r.out()).containsPattern("chunks {8}\\d+: [1-9]\\d* zero-elided, \\d+ compressed, [1-9]\\d* referenced from earlier files")
                .containsPattern("saved {9}compression \\d+ \\(\\d+\\.\\d%\\), zero elision 16384 \\(\\d+\\.\\d%\\), references [1-9]\\d* ");
    }

    @Test
    void inspect_json_statsAddUp() throws Exception {
        Run r = run("inspect", "--json", kept.path(data(RANK0, 1)));

        assertThat(r.exit()).isZero();
        JsonNode o = new ObjectMapper().readTree(r.out());
        assertThat(o.get("iteration").asLong()).isEqualTo(10);
        assertThat(o.get("entries")).hasSize(11);
        JsonNode chunks = o.get("chunks");
        assertThat(chunks.get("referenced").asLong()).isZero();
        assertThat(chunks.get("zeroElided").asLong()).isEqualTo(4);
        assertThat(chunks.get("compressed").asLong()).isPositive();
        assertThat(chunks.get("compressionSavedBytes").asLong()).isPositive();
        long raw = 0;
        for (JsonNode e : o.get("entries")) {
            raw += e.get("bytes").asLong();
        }
        assertThat(chunks.get("rawBytes").asLong()).isEqualTo(raw);
        assertThat(chunks.get("storedBytes").asLong() + chunks.get("compressionSavedBytes").asLong()
                + chunks.get("zeroElisionSavedBytes").asLong()).isEqualTo(raw);
        assertThat(o.get("fileBytes").asLong()).isGreaterThan(chunks.get("storedBytes").asLong());
    }

    @Test
    void inspect_storeOrSeries_readsTheNewestCommittedLine() {
        Run store = run("inspect", kept.root);
        Run series = run("inspect", kept.root.resolve(RANK1));

        assertThat(store.exit()).isZero();
        assertThat(store.err()).contains(data(RANK0, 3));
        assertThat(store.out()).contains("iteration     30");
        assertThat(series.exit()).isZero();
        assertThat(series.err()).contains(data(RANK1, 2));
        assertThat(series.out()).contains("iteration     20");
    }

    @Test
    void inspect_missingFile_isAUsageError() {
        Run r = run("inspect", kept.root.resolve("rank-00000/line-000000000042.ilc"));

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("does not exist");
    }

    @Test
    void inspect_anotherRanksDataFileInPlace_exitsOneNamingTheMismatch(@TempDir Path tmp) throws Exception {
        Path root = kept.copyTo(tmp.resolve("store"));
        Path target = root.resolve(data(RANK0, 1));
        Files.copy(root.resolve(data(RANK1, 1)), target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        // the commit record is made to state the new size, with a valid CRC: only the identity check can tell
        Path record = root.resolve(KeptCheckpoint.commit(RANK0, 1));
        String json = Files.readAllLines(record).get(1).replaceAll("\"dataBytes\":[0-9]+", "\"dataBytes\":" + Files.size(target));
        String body = "IRONLOOP-COMMIT 1\n" + json + "\n";
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Files.writeString(record, body + "crc32c " + java.util.HexFormat.of().toHexDigits((int) crc.getValue()) + "\n");

        Run r = run("inspect", target);

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("rank          1 of world size 2");
        assertThat(r.err()).contains("DAMAGED").contains("does not belong to its commit record " + KeptCheckpoint.commit(RANK0, 1))
                .contains("rank 1 in the data file, 0 in the commit record");
    }
}
