package io.ironloop.cli;

import static io.ironloop.cli.KeptCheckpoint.RANK0;
import static io.ironloop.cli.KeptCheckpoint.RANK1;
import static io.ironloop.cli.KeptCheckpoint.commit;
import static io.ironloop.cli.KeptCheckpoint.data;
import static io.ironloop.cli.KeptCheckpoint.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironloop.cli.KeptCheckpoint.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ironloop ls} on a kept checkpoint. */
class LsCommandTest {
    @TempDir
    static Path dir;
    static KeptCheckpoint kept;

    @BeforeAll
    static void keep() {
        kept = KeptCheckpoint.create(dir.resolve("store"));
    }

    @Test
    void ls_keptStore_listsEveryLineAndWhichRanksEachIterationIsCompleteFor() {
        Run r = run("ls", kept.root);

        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(1)).startsWith("SERIES").contains("ITERATION", "BYTES", "KIND", "SETTINGS", "CREATED", "STATE");
        assertThat(lines).filteredOn(l -> l.startsWith(RANK0)).hasSize(3).allSatisfy(l -> assertThat(l).endsWith("committed"));
        assertThat(lines).filteredOn(l -> l.startsWith(RANK0)).element(0).asString().contains(" full ");
        assertThat(lines).filteredOn(l -> l.startsWith(RANK0)).element(2).asString().containsPattern(" diff\\(1\\) ");
        assertThat(lines).filteredOn(l -> l.startsWith(RANK1)).hasSize(2);
        assertThat(lines).filteredOn(l -> l.startsWith("global")).hasSize(1);
        assertThat(lines).anySatisfy(l -> assertThat(l.split("\\s+")).containsExactly("10", "2", "0-1", "none", "yes", "-"));
        assertThat(lines).anySatisfy(l -> assertThat(l.split("\\s+")).containsExactly("20", "2", "0-1", "none", "no", "-"));
        assertThat(lines).anySatisfy(l -> assertThat(l.split("\\s+")).containsExactly("30", "2", "0", "1", "no", "-"));
        assertThat(r.err()).isEmpty();
    }

    @Test
    void ls_json_holdsLinesAndCompleteness() throws Exception {
        Run r = run("ls", "--json", kept.root);

        assertThat(r.exit()).isZero();
        JsonNode o = new ObjectMapper().readTree(r.out());
        assertThat(o.get("lines")).hasSize(6);
        assertThat(o.get("lines").get(0).get("series").asText()).isEqualTo("global");
        JsonNode first = o.get("lines").get(1);
        assertThat(first.get("series").asText()).isEqualTo(RANK0);
        assertThat(first.get("iteration").asLong()).isEqualTo(10);
        assertThat(first.get("full").asBoolean()).isTrue();
        assertThat(first.get("state").asText()).isEqualTo("committed");
        assertThat(first.get("settingsFingerprint").asText()).hasSize(64);
        assertThat(o.get("lines").get(3).get("references").get(0).asText()).startsWith(RANK0 + "/line-");
        JsonNode it10 = o.get("iterations").get(0);
        assertThat(it10.get("iteration").asLong()).isEqualTo(10);
        assertThat(it10.get("completeRanks").toString()).isEqualTo("[0,1]");
        assertThat(it10.get("global").asBoolean()).isTrue();
        assertThat(o.get("iterations").get(2).get("missingRanks").toString()).isEqualTo("[1]");
    }

    @Test
    void ls_damagedStore_showsInvalidCommitOrphanDataAndTemporary() throws Exception {
        Path copy = kept.copyTo(dir.resolve("damaged"));
        Files.writeString(copy.resolve(commit(RANK1, 2)), "not a commit record");
        Files.copy(copy.resolve(data(RANK1, 1)), copy.resolve(data(RANK1, 7)));
        Files.write(copy.resolve(data(RANK1, 8) + ".tmp"), new byte[123]);

        Run r = run("ls", copy);

        assertThat(r.exit()).isZero();
        List<String> rank1 = new ArrayList<>(r.out().lines().filter(l -> l.startsWith(RANK1)).toList());
        assertThat(rank1).hasSize(4);
        assertThat(rank1.get(0)).endsWith("committed");
        assertThat(rank1.get(1)).endsWith("invalid commit record").contains(" 20 ");
        assertThat(rank1.get(2)).endsWith("orphan data").contains(" 10 ");
        assertThat(rank1.get(3)).endsWith("temporary").contains(" 123 ");
        assertThat(r.out()).contains(commit(RANK1, 2) + ": ").contains("not a commit record");
        assertThat(r.out().lines()).anySatisfy(l -> assertThat(l.split("\\s+")).containsExactly("20", "2", "0", "1", "no", "-"));
    }

    @Test
    void ls_missingDirectory_isAUsageErrorSayingWhatToGive() {
        Run r = run("ls", dir.resolve("nowhere"));

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("does not exist").contains("store directory").contains("ironloop ls --help");
        assertThat(dir.resolve("nowhere")).doesNotExist();
    }

    @Test
    void ls_seriesDirectory_isAUsageError() {
        Run r = run("ls", kept.root.resolve(RANK0));

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("not a store directory");
    }
}
