package io.ironloop.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.format.Scope;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded mutations of the identity a data file records (its own name, job, rank, world size, iteration,
 * settings fingerprint), each of the same length and re-sealed with correct manifest and trailer CRCs, so
 * that the file's size still matches its commit record and every checksum holds. Each one must make restore
 * fall back to the previous line (never return the mutated line) and make verification report that file.
 */
class IdentityFuzzTest {
    private static final String SERIES = "rank-00000";
    private static final int TRAILER = 32;
    /** Each identity field of the manifest: the character to change (group 1) and what it may become, all valid. */
    private static final List<Mutation> IDENTITY = List.of(
            new Mutation(Pattern.compile("\"file\":\"rank-0000(0)/line-"), "123456789"),
            new Mutation(Pattern.compile("\"file\":\"rank-00000/line-00000000000(2)\\.ilc\""), "13456789"),
            new Mutation(Pattern.compile("\"jobId\":\"job-(a)\""), "bcdxyz"),
            new Mutation(Pattern.compile("\"rank\":(0)"), "1"),
            new Mutation(Pattern.compile("\"worldSize\":(2)"), "13456789"),
            new Mutation(Pattern.compile("\"iteration\":(2)"), "0134567"),
            new Mutation(Pattern.compile("\"settingsFingerprint\":\"[0-9a-f]{7}([0-9a-f])"), "0123456789abcdef"));

    private record Mutation(Pattern field, String into) {
    }

    @TempDir
    Path dir;
    private byte[] pristine;
    private final double[] state = new double[3000];

    @BeforeEach
    void writeTwoLines() throws IOException {
        try (CheckpointEngine e = open(EngineListener.NONE)) {
            for (int it = 1; it <= 2; it++) {
                java.util.Arrays.fill(state, it);
                e.checkpoint(it);
                e.awaitDurable();
            }
        }
        pristine = Files.readAllBytes(newest());
    }

    private CheckpointEngine open(EngineListener listener) {
        CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().jobId("job-a").rank(0, 2).retainLines(5).build(),
                Store.directory(dir), listener);
        e.protect("state", Scope.LOCAL, state);
        return e;
    }

    private Path newest() {
        return dir.resolve(SERIES + "/line-000000000002.ilc");
    }

    @Test
    void restoreAndVerify_sameSizeIdentityMutations_neverTrustTheMutatedFile() throws IOException {
        Random rnd = new Random(4242);
        for (int trial = 0; trial < 42; trial++) {
            Mutation mutation = IDENTITY.get(trial % IDENTITY.size());
            Files.write(newest(), mutate(pristine, mutation, rnd));
            String what = "trial " + trial + " " + mutation.field().pattern();

            List<Throwable> fellBack = new ArrayList<>();
            java.util.Arrays.fill(state, Double.NaN);
            try (CheckpointEngine e = open(new EngineListener() {
                @Override
                public void restoreFellBack(LineInfo line, Throwable cause) {
                    fellBack.add(cause);
                }
            })) {
                assertThat(e.restore().orElseThrow().iteration()).as(what).isEqualTo(1);
            }
            assertThat(state).as(what).containsOnly(1.0);
            assertThat(fellBack).as(what).singleElement().satisfies(c -> assertThat(c.getMessage())
                    .contains(SERIES + "/line-000000000002.ilc").contains(SERIES + "/line-000000000002.commit"));
            StoreCatalog.VerifyReport report = StoreCatalog.of(Store.directory(dir)).verifyStore();
            assertThat(report.problems()).as(what).singleElement().satisfies(p -> assertThat(p.file()).isEqualTo(SERIES
                    + "/line-000000000002.ilc"));
        }
        Files.write(newest(), pristine);
        assertThat(StoreCatalog.of(Store.directory(dir)).verifyStore().ok()).isTrue();
    }

    /** {@code file} with {@code mutation}'s character changed, manifest and trailer CRCs re-sealed. */
    private static byte[] mutate(byte[] file, Mutation mutation, Random rnd) {
        ByteBuffer trailer = ByteBuffer.wrap(file, file.length - TRAILER, TRAILER).slice().order(ByteOrder.LITTLE_ENDIAN);
        int at = (int) trailer.getLong(0);
        int length = (int) trailer.getLong(8);
        String manifest = new String(file, at, length, StandardCharsets.UTF_8);
        Matcher m = mutation.field().matcher(manifest);
        assertThat(m.find()).as(mutation.field().pattern()).isTrue();
        char replacement;
        do {
            replacement = mutation.into().charAt(rnd.nextInt(mutation.into().length()));
        } while (replacement == manifest.charAt(m.start(1)));
        String changed = manifest.substring(0, m.start(1)) + replacement + manifest.substring(m.start(1) + 1);
        byte[] out = file.clone();
        byte[] bytes = changed.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(bytes, 0, out, at, length);
        ByteBuffer t = ByteBuffer.wrap(out, out.length - TRAILER, TRAILER).slice().order(ByteOrder.LITTLE_ENDIAN);
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        t.putInt(16, (int) crc.getValue());
        crc.reset();
        crc.update(out, out.length - TRAILER, 28);
        t.putInt(28, (int) crc.getValue());
        return out;
    }
}
