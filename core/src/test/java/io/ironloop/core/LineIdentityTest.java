package io.ironloop.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.core.internal.CommitRecord;
import io.ironloop.format.CheckpointReader;
import io.ironloop.format.Scope;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restore never returns another process's data: a data file of another rank, line or job put in place of the
 * right one (with its commit record adjusted so that sizes match and every CRC holds) is damage. Restore falls
 * back to the previous line with a warning naming both files; verification and the catalog flag it.
 */
class LineIdentityTest {
    private static final int N = 5000;
    @TempDir
    Path dir;

    /** Rank 0 and rank 1 of one job (and rank 0 of another job) each write lines 1 and 2 of their own series. */
    @BeforeEach
    void writeTwoRanks() {
        write("job-a", 0, "rank-00000");
        write("job-a", 1, "rank-00001");
        write("job-b", 0, "other-job");
    }

    private void write(String job, int rank, String series) {
        double[] state = new double[N];
        try (CheckpointEngine e = CheckpointEngine.open(config(job, rank, series), Store.directory(dir))) {
            e.protect("state", Scope.LOCAL, state);
            for (int it = 1; it <= 2; it++) {
                fill(state, job, rank, it);
                e.checkpoint(it);
                e.awaitDurable();
            }
        }
    }

    private static EngineConfig config(String job, int rank, String series) {
        return EngineConfig.builder().jobId(job).rank(rank, 2).series(series).chunkSize(4096).retainLines(5).build();
    }

    private static void fill(double[] state, String job, int rank, int iteration) {
        for (int i = 0; i < state.length; i++) {
            state[i] = job.hashCode() + rank * 1e9 + iteration * 1e6 + i;
        }
    }

    private static String data(String series, int line) {
        return String.format("%s/line-%012d.ilc", series, line);
    }

    private static String commit(String series, int line) {
        return String.format("%s/line-%012d.commit", series, line);
    }

    /**
     * Puts {@code from}'s data file of line 2 in place of rank 0's and rewrites rank 0's commit record so that
     * it states the new size, with a valid CRC: only the identity check can tell.
     */
    private void replaceRankZeroLineTwoWith(String from) throws IOException {
        Files.copy(dir.resolve(from), dir.resolve(data("rank-00000", 2)), StandardCopyOption.REPLACE_EXISTING);
        Path record = dir.resolve(commit("rank-00000", 2));
        LineInfo l = CommitRecord.decode(Files.readAllBytes(record), commit("rank-00000", 2));
        LineInfo resized = new LineInfo(l.series(), l.sequence(), l.iteration(), l.dataFile(), Files.size(dir.resolve(data("rank-00000", 2))),
                l.settingsFingerprint(), l.full(), l.references(), l.jobId(), l.rank(), l.worldSize(), l.createdAt());
        Files.write(record, CommitRecord.encode(resized));
    }

    private LineInfo restoreRankZero(List<Throwable> fellBack, double[] state) {
        try (CheckpointEngine e = CheckpointEngine.open(config("job-a", 0, "rank-00000"), Store.directory(dir), new EngineListener() {
            @Override
            public void restoreFellBack(LineInfo line, Throwable cause) {
                fellBack.add(cause);
            }
        })) {
            e.protect("state", Scope.LOCAL, state);
            return e.restore().orElseThrow();
        }
    }

    @Test
    void restore_anotherRanksDataFileInPlace_fallsBackToPreviousLineNamingBoth() throws IOException {
        replaceRankZeroLineTwoWith(data("rank-00001", 2));
        List<Throwable> fellBack = new ArrayList<>();
        double[] state = new double[N];

        LineInfo restored = restoreRankZero(fellBack, state);

        double[] expected = new double[N];
        fill(expected, "job-a", 0, 1);
        assertThat(restored.iteration()).isEqualTo(1);
        assertThat(state).as("rank 0's own line 1, never rank 1's arrays").isEqualTo(expected);
        assertThat(fellBack).singleElement().satisfies(c -> assertThat(c.getMessage())
                .contains(data("rank-00000", 2)).contains(commit("rank-00000", 2))
                .contains("rank 1 in the data file, 0 in the commit record")
                .contains("file rank-00001/line-000000000002.ilc in the data file"));
    }

    @Test
    void restore_anotherJobsDataFileOfTheSameRankInPlace_fallsBack() throws IOException {
        replaceRankZeroLineTwoWith(data("other-job", 2));
        List<Throwable> fellBack = new ArrayList<>();

        assertThat(restoreRankZero(fellBack, new double[N]).iteration()).isEqualTo(1);
        assertThat(fellBack).singleElement().satisfies(c -> assertThat(c.getMessage()).contains("job job-b in the data file, job-a"));
    }

    @Test
    void verifyFile_dataFileOfAnotherJobUnderTheSameName_isAProblem() throws IOException {
        Path otherStore = dir.resolve("elsewhere");
        double[] state = new double[N];
        try (CheckpointEngine e = CheckpointEngine.open(config("job-b", 0, "rank-00000"), Store.directory(otherStore))) {
            e.protect("state", Scope.LOCAL, state);
            for (int it = 1; it <= 2; it++) {
                fill(state, "job-b", 0, it);
                e.checkpoint(it);
                e.awaitDurable();
            }
        }
        replaceRankZeroLineTwoWith("elsewhere/" + data("rank-00000", 2));

        StoreCatalog.VerifyReport report = StoreCatalog.of(Store.directory(dir)).verifyFile(data("rank-00000", 2));

        assertThat(report.problems()).singleElement().satisfies(p -> assertThat(p.message())
                .contains("job job-b in the data file, job-a in the commit record"));
    }

    @Test
    void restore_ownOlderLineCopiedOverTheNewest_fallsBack() throws IOException {
        replaceRankZeroLineTwoWith(data("rank-00000", 1));
        List<Throwable> fellBack = new ArrayList<>();

        assertThat(restoreRankZero(fellBack, new double[N]).iteration()).isEqualTo(1);
        assertThat(fellBack).singleElement().satisfies(c -> assertThat(c.getMessage())
                .contains("file rank-00000/line-000000000001.ilc in the data file"));
    }

    @Test
    void verifyStore_anotherRanksDataFileInPlace_isAProblemNamingTheFile() throws IOException {
        replaceRankZeroLineTwoWith(data("rank-00001", 2));

        StoreCatalog.VerifyReport report = StoreCatalog.of(Store.directory(dir)).verifyStore();

        assertThat(report.ok()).isFalse();
        assertThat(report.problems()).singleElement().satisfies(p -> {
            assertThat(p.file()).isEqualTo(data("rank-00000", 2));
            assertThat(p.message()).contains("does not belong to its commit record").contains("rank 1 in the data file");
        });
        assertThat(StoreCatalog.of(Store.directory(dir)).verifyLine("rank-00000", 2).ok()).isFalse();
        assertThat(StoreCatalog.of(Store.directory(dir)).verifyFile(data("rank-00000", 2)).ok()).isFalse();
    }

    @Test
    void verifyStore_uncommittedDataFileCopiedFromAnotherSeries_isAProblem() throws IOException {
        Files.copy(dir.resolve(data("rank-00001", 2)), dir.resolve(data("rank-00000", 7)));

        StoreCatalog.VerifyReport report = StoreCatalog.of(Store.directory(dir)).verifyStore();

        assertThat(report.problems()).singleElement().satisfies(p -> {
            assertThat(p.file()).isEqualTo(data("rank-00000", 7));
            assertThat(p.message()).contains("records the name rank-00001/line-000000000002.ilc");
        });
    }

    @Test
    void identityProblem_isWhatInspectReports() throws IOException {
        StoreCatalog catalog = StoreCatalog.of(Store.directory(dir));
        assertThat(catalog.identityProblem(data("rank-00000", 2), manifest(data("rank-00000", 2)))).isEmpty();

        replaceRankZeroLineTwoWith(data("rank-00001", 2));

        assertThat(catalog.identityProblem(data("rank-00000", 2), manifest(data("rank-00000", 2))))
                .hasValueSatisfying(p -> assertThat(p).contains("rank 1 in the data file"));
    }

    private io.ironloop.format.Manifest manifest(String name) throws IOException {
        Store store = Store.directory(dir);
        try (SeekableByteChannel ch = store.openRead(name)) {
            return CheckpointReader.open(ch, name, store::openRead).manifest();
        }
    }

    @Test
    void restore_intactStore_restoresEachRanksOwnNewestLine() throws IOException {
        double[] state = new double[N];
        List<Throwable> fellBack = new ArrayList<>();

        assertThat(restoreRankZero(fellBack, state).iteration()).isEqualTo(2);
        double[] expected = new double[N];
        fill(expected, "job-a", 0, 2);
        assertThat(Arrays.equals(state, expected)).isTrue();
        assertThat(fellBack).isEmpty();
        assertThat(StoreCatalog.of(Store.directory(dir)).verifyStore().ok()).isTrue();
    }
}
