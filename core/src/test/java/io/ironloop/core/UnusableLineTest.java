package io.ironloop.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.core.internal.CommitRecord;
import io.ironloop.format.Scope;
import io.ironloop.format.UnsupportedVersionException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What restore does with a newest line it cannot use although nothing in it is damaged: one whose entries
 * differ from the registration is skipped with a warning naming the difference; one written by a newer
 * Ironloop stops the restore ("upgrade") instead of silently rolling back; one whose commit record claims
 * another line is skipped loudly, never quietly.
 */
class UnusableLineTest {
    private static final String SERIES = "rank-00000";
    @TempDir
    Path dir;

    private CheckpointEngine open(EngineListener listener) {
        return CheckpointEngine.open(EngineConfig.builder().retainLines(5).build(), Store.directory(dir), listener);
    }

    private Path file(int line, String suffix) {
        return dir.resolve(String.format("%s/line-%012d%s", SERIES, line, suffix));
    }

    /** Line 1 holds "state" as double[100] (values 1.0); line 2, written after a change, holds it as {@code newest}. */
    private void writeLines(Object newest) {
        double[] state = new double[100];
        java.util.Arrays.fill(state, 1.0);
        try (CheckpointEngine e = open(EngineListener.NONE)) {
            e.protect("state", Scope.LOCAL, state);
            e.checkpoint(1);
            e.awaitDurable();
        }
        try (CheckpointEngine e = open(EngineListener.NONE)) {
            if (newest instanceof double[] d) {
                e.protect("state", Scope.LOCAL, d);
            } else if (newest instanceof float[] f) {
                e.protect("state", Scope.LOCAL, f);
            } else {
                e.protect("renamed", Scope.LOCAL, (double[]) ((Object[]) newest)[0]);
            }
            e.checkpoint(2);
            e.awaitDurable();
        }
    }

    private static final class Recorder implements EngineListener {
        final List<Throwable> fellBack = new ArrayList<>();
        final List<String> skippedRecords = new ArrayList<>();

        @Override
        public void restoreFellBack(LineInfo line, Throwable cause) {
            fellBack.add(cause);
        }

        @Override
        public void restoreSkippedRecord(String commitFile, Throwable cause) {
            skippedRecords.add(commitFile + ": " + cause.getMessage());
        }
    }

    private LineInfo restore(Recorder recorder, double[] into) {
        try (CheckpointEngine e = open(recorder)) {
            e.protect("state", Scope.LOCAL, into);
            return e.restore().orElseThrow();
        }
    }

    @Test
    void restore_newestLineHoldsEntryWithAnotherType_skipsItNamingTheDifference() {
        writeLines(new float[100]);
        Recorder r = new Recorder();
        double[] state = new double[100];

        assertThat(restore(r, state).iteration()).isEqualTo(1);
        assertThat(state).containsOnly(1.0);
        assertThat(r.fellBack).singleElement().isInstanceOf(EntryMismatchException.class).satisfies(c -> assertThat(c.getMessage())
                .contains("line-000000000002.ilc").contains("holds 'state' as FLOAT[100] but it is protected as DOUBLE[100]"));
    }

    @Test
    void restore_newestLineHoldsEntryWithAnotherShape_skipsIt() {
        writeLines(new double[150]);
        Recorder r = new Recorder();

        assertThat(restore(r, new double[100]).iteration()).isEqualTo(1);
        assertThat(r.fellBack).singleElement().satisfies(c -> assertThat(c.getMessage()).contains("DOUBLE[150]").contains("DOUBLE[100]"));
    }

    @Test
    void restore_newestLineLacksAnEntry_skipsIt() {
        writeLines(new Object[] {new double[100]});
        Recorder r = new Recorder();

        assertThat(restore(r, new double[100]).iteration()).isEqualTo(1);
        assertThat(r.fellBack).singleElement().satisfies(c -> assertThat(c.getMessage()).contains("has no entry 'state'")
                .contains("[renamed]"));
    }

    @Test
    void restore_noLineMatchesTheRegistration_throwsNamingTheDifference() {
        writeLines(new float[100]);
        try (CheckpointEngine e = open(EngineListener.NONE)) {
            e.protect("state", Scope.LOCAL, new int[100]);

            assertThatThrownBy(e::restore).isInstanceOf(NoIntactCheckpointException.class)
                    .hasMessageContaining("holds 'state' as FLOAT[100] but it is protected as INT[100]");
        }
    }

    @Test
    void restore_newestDataFileOfNewerMajorFormat_stopsWithUpgradeInsteadOfRollingBack() throws IOException {
        writeLines(new double[100]);
        try (RandomAccessFile f = new RandomAccessFile(file(2, ".ilc").toFile(), "rw")) {
            f.seek(8); // the header's major version, u16 little-endian (docs/format.md)
            f.write(2);
        }
        Recorder r = new Recorder();

        assertThatThrownBy(() -> restore(r, new double[100])).isInstanceOf(UnsupportedVersionException.class)
                .hasMessageContaining("line-000000000002.ilc").hasMessageContaining("written by a newer Ironloop (format 2.0")
                .hasMessageContaining("upgrade");
        assertThat(r.fellBack).isEmpty();
    }

    @Test
    void restore_newestCommitRecordOfNewerVersion_stopsWithUpgrade() throws IOException {
        writeLines(new double[100]);
        String record = Files.readString(file(2, ".commit"), StandardCharsets.UTF_8);
        String json = record.substring(CommitRecord.MAGIC_LINE.length(), record.indexOf('\n', CommitRecord.MAGIC_LINE.length()));
        Files.write(file(2, ".commit"), reseal("IRONLOOP-COMMIT 2\n", json));

        assertThatThrownBy(() -> restore(new Recorder(), new double[100])).isInstanceOf(UnsupportedVersionException.class)
                .hasMessageContaining("line-000000000002.commit").hasMessageContaining("written by a newer Ironloop");
    }

    @Test
    void restore_olderLineOfNewerFormat_doesNotMatterWhenTheNewestIsUsable() throws IOException {
        writeLines(new double[100]);
        try (RandomAccessFile f = new RandomAccessFile(file(1, ".ilc").toFile(), "rw")) {
            f.seek(8);
            f.write(2);
        }

        assertThat(restore(new Recorder(), new double[100]).iteration()).isEqualTo(2);
    }

    @Test
    void restore_newestRecordClaimingAnotherSequence_isSkippedLoudlyNotQuietly() throws IOException {
        double[] state = new double[100];
        try (CheckpointEngine e = open(EngineListener.NONE)) {
            e.protect("state", Scope.LOCAL, state);
            for (int it = 1; it <= 3; it++) {
                java.util.Arrays.fill(state, it);
                e.checkpoint(it);
                e.awaitDurable();
            }
        }
        String record = Files.readString(file(3, ".commit"), StandardCharsets.UTF_8);
        String json = record.substring(CommitRecord.MAGIC_LINE.length(), record.indexOf('\n', CommitRecord.MAGIC_LINE.length()));
        Files.write(file(3, ".commit"), reseal(CommitRecord.MAGIC_LINE, json.replace("\"sequence\":3", "\"sequence\":1")));
        Recorder r = new Recorder();

        LineInfo restored = restore(r, state);

        assertThat(restored.sequence()).isEqualTo(2);
        assertThat(restored.dataFile()).endsWith("line-000000000002.ilc");
        assertThat(state).containsOnly(2.0);
        assertThat(r.skippedRecords).singleElement().satisfies(s -> assertThat(s)
                .startsWith(SERIES + "/line-000000000003.commit: ").contains("claims line 1"));
    }

    private static byte[] reseal(String firstLine, String json) {
        byte[] body = (firstLine + json + "\n").getBytes(StandardCharsets.UTF_8);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(body);
        return (firstLine + json + "\n" + "crc32c " + java.util.HexFormat.of().toHexDigits((int) crc.getValue()) + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }
}
