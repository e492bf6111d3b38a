package io.ironloop.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.core.LineInfo;
import io.ironloop.format.ChecksumMismatchException;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.UnsupportedVersionException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Seeded mutations of a valid commit record, each of a kind that must be rejected: a field given another JSON
 * type, a field name or the CRC in another case, a byte-order mark, a record or string over the size limits,
 * a self-reference (series, sequence, data file, reference) that does not match the record's name, a newer
 * version, a flipped byte. Every mutation except the flipped byte is re-sealed with a correct CRC. Each must
 * be rejected with a {@link CorruptCheckpointException} of the expected kind; none may be accepted or fail in
 * any other way.
 */
class CommitRecordFuzzTest {
    private static final Pattern FIELD = Pattern.compile("\"([A-Za-z]+)\":(\"[^\"]*\"|-?[0-9]+|true|false|\\[[^]]*])");
    private static final Map<String, List<String>> WRONG_TYPE = Map.of(
            "integer", List.of("\"1\"", "\"abc\"", "1.0", "3e0", "true", "null", "{}", "[]", "[3]", "123456789012345678901"),
            "string", List.of("1", "true", "null", "{}", "[]", "[\"x\"]", "\"\""),
            "boolean", List.of("\"yes\"", "\"false\"", "1", "0", "null", "{}", "[]"),
            "array", List.of("\"rank-00000/line-000000000001.ilc\"", "1", "true", "null", "{}", "[1]", "[null]"));
    private static final Map<String, String> KIND = Map.ofEntries(Map.entry("series", "string"), Map.entry("sequence", "integer"),
            Map.entry("iteration", "integer"), Map.entry("dataFile", "string"), Map.entry("dataBytes", "integer"),
            Map.entry("settingsFingerprint", "string"), Map.entry("full", "boolean"), Map.entry("references", "array"),
            Map.entry("jobId", "string"), Map.entry("rank", "integer"), Map.entry("worldSize", "integer"),
            Map.entry("createdAt", "string"));
    private static final List<String> SELF_REFERENCES = List.of(
            "\"series\":\"rank-00001\"", "\"series\":\"global\"", "\"sequence\":2", "\"sequence\":4", "\"sequence\":1",
            "\"dataFile\":\"rank-00000/line-000000000002.ilc\"", "\"dataFile\":\"rank-00001/line-000000000003.ilc\"",
            "\"dataFile\":\"rank-00000/line-000000000003.commit\"",
            "\"references\":[\"rank-00000/line-000000000003.ilc\"]", "\"references\":[\"rank-00001/line-000000000001.ilc\"]",
            "\"references\":[\"rank-00000/other.ilc\"]", "\"references\":[\"rank-00000/line-000000000001.ilc\",\"rank-00000/line-000000000001.ilc\"]");

    @Test
    void decode_seededMutations_allRejectedWithTheSpecificException() {
        LineInfo line = CommitRecordTest.line();
        String json = CommitRecordTest.json(line);
        List<java.util.regex.MatchResult> fields = FIELD.matcher(json).results().toList();
        assertThat(fields).extracting(m -> m.group(1)).containsExactlyInAnyOrderElementsOf(KIND.keySet());
        Random rnd = new Random(1313);
        int[] kinds = new int[8];
        for (int trial = 0; trial < 3000; trial++) {
            int kind = rnd.nextInt(kinds.length);
            kinds[kind]++;
            java.util.regex.MatchResult f = fields.get(rnd.nextInt(fields.size()));
            byte[] record;
            Class<? extends CorruptCheckpointException> expected = CorruptCheckpointException.class;
            switch (kind) {
                case 0 -> { // another JSON type
                    List<String> wrong = WRONG_TYPE.get(KIND.get(f.group(1)));
                    record = CommitRecordTest.seal(replace(json, f.start(2), f.end(2), wrong.get(rnd.nextInt(wrong.size()))));
                }
                case 1 -> { // a field name in another case: the real field is then missing
                    String name = f.group(1);
                    String other = rnd.nextBoolean() ? name.toUpperCase(Locale.ROOT) : Character.toUpperCase(name.charAt(0)) + name.substring(1);
                    record = CommitRecordTest.seal(replace(json, f.start(1), f.end(1), other));
                }
                case 2 -> { // the CRC's hex digits, or the magic, in upper or lower case
                    String text = new String(CommitRecord.encode(withIteration(line, rnd.nextInt(1000))), StandardCharsets.UTF_8);
                    int crc = text.lastIndexOf("crc32c ");
                    String cased = rnd.nextBoolean()
                            ? text.substring(0, crc) + "crc32c " + text.substring(crc + 7).toUpperCase(Locale.ROOT)
                            : text.substring(0, crc) + "CRC32C" + text.substring(crc + 6);
                    if (cased.equals(text)) {
                        cased = text.replace("IRONLOOP-COMMIT", "ironloop-commit");
                    }
                    record = cased.getBytes(StandardCharsets.UTF_8);
                }
                case 3 -> { // a byte-order mark
                    record = withBom(CommitRecord.encode(line));
                }
                case 4 -> { // over the size limits: the record, or one string
                    record = rnd.nextBoolean()
                            ? CommitRecordTest.seal(json.replace("\"jobId\":\"local\"", "\"jobId\":\"local\",\"x\":\""
                                    + "x".repeat(CommitRecord.MAX_BYTES - json.length() + rnd.nextInt(1000)) + "\""))
                            : CommitRecordTest.seal(json.replace("\"settingsFingerprint\":\"5ca7e0\"", "\"settingsFingerprint\":\""
                                    + "f".repeat(CommitRecord.MAX_STRING_CHARS + 1 + rnd.nextInt(100)) + "\""));
                }
                case 5 -> { // a self-reference that does not match the record's name
                    String claim = SELF_REFERENCES.get(rnd.nextInt(SELF_REFERENCES.size()));
                    String field = claim.substring(1, claim.indexOf('"', 1));
                    java.util.regex.MatchResult target = fields.stream().filter(m -> m.group(1).equals(field)).findFirst().orElseThrow();
                    record = CommitRecordTest.seal(replace(json, target.start(), target.end(), claim));
                }
                case 6 -> { // a newer version
                    record = CommitRecordTest.seal("IRONLOOP-COMMIT " + (2 + rnd.nextInt(99)) + "\n", json);
                    expected = UnsupportedVersionException.class;
                }
                default -> { // a flipped byte in the covered text, not re-sealed
                    record = CommitRecord.encode(line);
                    int at = CommitRecord.MAGIC_LINE.length() + rnd.nextInt(json.length());
                    record[at] ^= (byte) (1 << rnd.nextInt(7));
                    expected = ChecksumMismatchException.class;
                }
            }
            assertRejected(record, expected, "trial " + trial + " kind " + kind);
        }
        assertThat(java.util.Arrays.stream(kinds).min().orElseThrow()).as("every kind of mutation is tried").isGreaterThan(300);
    }

    @Test
    void decode_randomEditsResealed_eitherRejectedOrDescribeTheLineTheyAreNamedFor() {
        LineInfo line = CommitRecordTest.line();
        String json = CommitRecordTest.json(line);
        String alphabet = "{}[]\",:0123456789-.eE \\u/abcdefrank-lin.ilc\t\u00e9\ud83d\ude00";
        Random rnd = new Random(31337);
        int accepted = 0;
        for (int trial = 0; trial < 5000; trial++) {
            StringBuilder s = new StringBuilder(json);
            for (int edits = 1 + rnd.nextInt(3); edits > 0 && s.length() > 0; edits--) {
                int at = rnd.nextInt(s.length());
                switch (rnd.nextInt(3)) {
                    case 0 -> s.insert(at, alphabet.charAt(rnd.nextInt(alphabet.length())));
                    case 1 -> s.deleteCharAt(at);
                    default -> s.setCharAt(at, alphabet.charAt(rnd.nextInt(alphabet.length())));
                }
            }
            String edited = s.toString();
            byte[] record = CommitRecordTest.seal(edited);
            try {
                LineInfo l = CommitRecord.decode(record, CommitRecordTest.NAME);
                accepted++;
                assertThat(l.series()).as(edited).isEqualTo(line.series());
                assertThat(l.sequence()).as(edited).isEqualTo(line.sequence());
                assertThat(l.dataFile()).as(edited).isEqualTo(line.dataFile());
                assertThat(l.rank()).as(edited).isLessThan(l.worldSize());
                assertThat(l.full()).as(edited).isEqualTo(l.references().isEmpty());
                assertThat(l.references()).as(edited).allSatisfy(r -> assertThat(LineCatalog.sequenceOf(r, LineCatalog.DATA_SUFFIX))
                        .isBetween(1L, line.sequence() - 1));
            } catch (CorruptCheckpointException e) {
                assertThat(e).as(edited).hasMessageStartingWith(CommitRecordTest.NAME + " at offset ");
            } catch (RuntimeException | Error e) {
                throw new AssertionError("trial " + trial + ": " + e + " on " + edited, e);
            }
        }
        assertThat(accepted).as("some edits (whitespace, other digits) keep a valid record").isPositive();
    }

    private static void assertRejected(byte[] record, Class<? extends CorruptCheckpointException> expected, String what) {
        try {
            LineInfo accepted = CommitRecord.decode(record, CommitRecordTest.NAME);
            throw new AssertionError(what + ": accepted " + accepted + " from " + new String(record, StandardCharsets.UTF_8));
        } catch (CorruptCheckpointException e) {
            assertThat(e).as(what).isInstanceOf(expected).hasMessageStartingWith(CommitRecordTest.NAME + " at offset ");
            if (expected == CorruptCheckpointException.class) {
                assertThat(e).as(what + ": not a version problem").isNotInstanceOf(UnsupportedVersionException.class);
            }
        } catch (RuntimeException | Error e) {
            throw new AssertionError(what + ": failed with " + e + " on " + new String(record, StandardCharsets.UTF_8), e);
        }
    }

    private static String replace(String s, int start, int end, String with) {
        return s.substring(0, start) + with + s.substring(end);
    }

    private static LineInfo withIteration(LineInfo l, long iteration) {
        return new LineInfo(l.series(), l.sequence(), iteration, l.dataFile(), l.dataBytes(), l.settingsFingerprint(), l.full(),
                l.references(), l.jobId(), l.rank(), l.worldSize(), l.createdAt());
    }

    private static byte[] withBom(byte[] record) {
        byte[] out = new byte[record.length + 3];
        out[0] = (byte) 0xEF;
        out[1] = (byte) 0xBB;
        out[2] = (byte) 0xBF;
        System.arraycopy(record, 0, out, 3, record.length);
        return out;
    }
}
