package io.ironloop.format.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.format.Checkpoints;
import io.ironloop.format.ChunkResolver;
import io.ironloop.format.CorruptCheckpointException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Manifests are decoded strictly: each field has exactly its documented JSON type (no coercion), names and
 * enum values are case-sensitive, the text is UTF-8 without a byte-order mark, and the size limits hold. Each
 * forged manifest is re-sealed with a correct CRC, so only the decoder's strictness can reject it.
 */
class StrictManifestTest {
    /** Every field of the forged manifest whose JSON type is fixed, with that type. */
    private static final Map<String, Kind> FIELDS = Map.ofEntries(
            Map.entry("format", Kind.STRING), Map.entry("formatVersion", Kind.INTEGER), Map.entry("formatMinorVersion", Kind.INTEGER),
            Map.entry("writerVersion", Kind.STRING), Map.entry("chunkSize", Kind.INTEGER), Map.entry("jobId", Kind.STRING),
            Map.entry("iteration", Kind.INTEGER), Map.entry("rank", Kind.INTEGER), Map.entry("worldSize", Kind.INTEGER),
            Map.entry("settingsFingerprint", Kind.STRING), Map.entry("createdAt", Kind.STRING), Map.entry("name", Kind.STRING),
            Map.entry("type", Kind.ENUM), Map.entry("scope", Kind.ENUM), Map.entry("codec", Kind.ENUM),
            Map.entry("byteLength", Kind.INTEGER), Map.entry("index", Kind.INTEGER), Map.entry("rawLength", Kind.INTEGER),
            Map.entry("offset", Kind.INTEGER), Map.entry("storedLength", Kind.INTEGER), Map.entry("shuffled", Kind.BOOLEAN),
            Map.entry("zero", Kind.BOOLEAN), Map.entry("crc32c", Kind.INTEGER), Map.entry("paddingCrc32c", Kind.INTEGER));

    private enum Kind {
        INTEGER(List.of("\"1\"", "\"0\"", "1.0", "0.0", "1e0", "true", "false", "null", "{}", "[]", "[1]", "123456789012345678901234567890")),
        STRING(List.of("1", "0", "true", "null", "{}", "[]", "[\"x\"]")),
        ENUM(List.of("1", "true", "null", "{}", "[]", "\"double\"", "\"Double\"", "\"\"", "\" NONE\"")),
        BOOLEAN(List.of("\"true\"", "\"false\"", "\"yes\"", "1", "0", "null", "{}", "[]", "TRUE"));

        final List<String> wrong;

        Kind(List<String> wrong) {
            this.wrong = wrong;
        }
    }

    private static final Pattern FIELD = Pattern.compile("\"([A-Za-z0-9]+)\":(\"[^\"]*\"|-?[0-9]+|true|false|null)");

    @Test
    void open_anyFieldGivenAnotherJsonType_isRejected() {
        String valid = Forge.manifest();
        List<MatchResult> fields = FIELD.matcher(valid).results().map(MatchResult::of)
                .filter(m -> FIELDS.containsKey(m.name)).toList();
        assertThat(fields).hasSizeGreaterThan(40);
        Random rnd = new Random(13);
        for (int trial = 0; trial < 600; trial++) {
            MatchResult f = fields.get(rnd.nextInt(fields.size()));
            List<String> wrong = FIELDS.get(f.name).wrong;
            String value = wrong.get(rnd.nextInt(wrong.size()));
            String json = valid.substring(0, f.valueStart) + value + valid.substring(f.valueEnd);
            assertRejected(json, "trial " + trial + ": " + f.name + " = " + value);
        }
    }

    @Test
    void open_fieldNameInAnotherCase_isRejected() {
        String valid = Forge.manifest();
        Random rnd = new Random(17);
        List<MatchResult> fields = FIELD.matcher(valid).results().map(MatchResult::of).filter(m -> FIELDS.containsKey(m.name)).toList();
        for (int trial = 0; trial < 200; trial++) {
            MatchResult f = fields.get(rnd.nextInt(fields.size()));
            String renamed = rnd.nextBoolean() ? f.name.toUpperCase(java.util.Locale.ROOT)
                    : Character.toUpperCase(f.name.charAt(0)) + f.name.substring(1);
            // a renamed field is an unknown one (skipped) and the real one is missing
            String json = valid.substring(0, f.nameStart) + renamed + valid.substring(f.nameStart + f.name.length());
            assertRejected(json, "trial " + trial + ": " + f.name + " renamed " + renamed);
        }
    }

    @Test
    void open_upperCaseHash_isRejected() {
        String valid = Forge.manifest();
        Matcher hash = Pattern.compile("\"hash\":\"([0-9a-f]{64})\"").matcher(valid);
        assertThat(hash.find()).isTrue();
        String json = valid.substring(0, hash.start(1)) + hash.group(1).toUpperCase(java.util.Locale.ROOT) + valid.substring(hash.end(1));

        assertRejected(json, "upper-case hash");
    }

    @Test
    void open_manifestWithByteOrderMark_isRejected() {
        byte[] json = Forge.manifest().getBytes(StandardCharsets.UTF_8);
        byte[] bom = new byte[json.length + 3];
        bom[0] = (byte) 0xEF;
        bom[1] = (byte) 0xBB;
        bom[2] = (byte) 0xBF;
        System.arraycopy(json, 0, bom, 3, json.length);

        assertThatThrownBy(() -> Checkpoints.open(Forge.file(FileHeader.CURRENT, Forge.split(Forge.valid()).payload(), bom), Forge.NAME,
                ChunkResolver.NONE)).isInstanceOf(CorruptCheckpointException.class).hasMessageContaining("byte-order mark");
    }

    @Test
    void open_manifestInUtf16_isRejected() {
        byte[] utf16 = Forge.manifest().getBytes(StandardCharsets.UTF_16LE);

        assertThatThrownBy(() -> Checkpoints.open(Forge.file(FileHeader.CURRENT, Forge.split(Forge.valid()).payload(), utf16), Forge.NAME,
                ChunkResolver.NONE)).isInstanceOf(CorruptCheckpointException.class).hasMessageContaining("not UTF-8");
    }

    @Test
    void open_namesAndNumbersBeyondTheDocumentedLimits_areRejected() {
        String valid = Forge.manifest();
        Matcher name = Pattern.compile("\"name\":\"([^\"]*)\"").matcher(valid);
        assertThat(name.find()).isTrue();
        assertRejected(valid.substring(0, name.start(1)) + "n".repeat(Layout.MAX_NAME_CHARS + 1) + valid.substring(name.end(1)),
                "entry name over the limit");
        Matcher job = Pattern.compile("\"jobId\":\"([^\"]*)\"").matcher(valid);
        assertThat(job.find()).isTrue();
        assertRejected(valid.substring(0, job.start(1)) + "j".repeat(Layout.MAX_TEXT_CHARS + 1) + valid.substring(job.end(1)),
                "job id over the limit");
        Matcher iteration = Pattern.compile("\"iteration\":([0-9]+)").matcher(valid);
        assertThat(iteration.find()).isTrue();
        assertRejected(valid.substring(0, iteration.start(1)) + "0".repeat(24) + "7" + valid.substring(iteration.end(1)),
                "a 25-digit number");
    }

    private static void assertRejected(String json, String what) {
        byte[] file = Forge.file(FileHeader.CURRENT, Forge.split(Forge.valid()).payload(), json);
        assertThatThrownBy(() -> Checkpoints.open(file, Forge.NAME, ChunkResolver.NONE)).as(what)
                .isInstanceOf(CorruptCheckpointException.class).hasMessageStartingWith(Forge.NAME + " at offset ");
    }

    /** One {@code "name":value} pair of the manifest and where its parts are. */
    private record MatchResult(String name, int nameStart, int valueStart, int valueEnd) {
        static MatchResult of(java.util.regex.MatchResult m) {
            return new MatchResult(m.group(1), m.start(1), m.start(2), m.end(2));
        }
    }
}
