package io.ironloop.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.core.LineInfo;
import io.ironloop.format.ChecksumMismatchException;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.UnsupportedVersionException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Commit records are decoded strictly: each case is a record whose CRC holds (it was re-sealed after the
 * edit), so only the decoder's strictness can reject it.
 */
class CommitRecordTest {
    static final String NAME = "rank-00000/line-000000000003.commit";

    static LineInfo line() {
        return new LineInfo("rank-00000", 3, 30, "rank-00000/line-000000000003.ilc", 9640, "5ca7e0", false,
                Set.of("rank-00000/line-000000000001.ilc"), "local", 0, 2, Instant.parse("2026-11-21T12:19:05.707Z"));
    }

    /** The JSON line of {@code line}'s record. */
    static String json(LineInfo line) {
        String text = new String(CommitRecord.encode(line), StandardCharsets.UTF_8);
        return text.substring(CommitRecord.MAGIC_LINE.length(), text.indexOf('\n', CommitRecord.MAGIC_LINE.length()));
    }

    /** A record of {@code firstLine}, {@code json} and a correct CRC line. */
    static byte[] seal(String firstLine, String json) {
        byte[] body = (firstLine + json + "\n").getBytes(StandardCharsets.UTF_8);
        CRC32C crc = new CRC32C();
        crc.update(body);
        return (new String(body, StandardCharsets.UTF_8) + "crc32c " + HexFormat.of().toHexDigits((int) crc.getValue()) + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    static byte[] seal(String json) {
        return seal(CommitRecord.MAGIC_LINE, json);
    }

    private static CorruptCheckpointException rejected(byte[] record) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> CommitRecord.decode(record, NAME));
        assertThat(t).as(new String(record, StandardCharsets.UTF_8)).isInstanceOf(CorruptCheckpointException.class);
        assertThat(t.getMessage()).startsWith(NAME + " at offset ");
        return (CorruptCheckpointException) t;
    }

    @Test
    void decode_encodedRecord_roundTrips() {
        assertThat(CommitRecord.decode(CommitRecord.encode(line()), NAME)).isEqualTo(line());
        assertThat(CommitRecord.decode(seal(json(line())), NAME)).isEqualTo(line());
    }

    @Test
    void decode_upperCaseCrc_isRejected() {
        // find a record whose CRC has a hex letter, so upper-casing it changes it
        for (int it = 0; ; it++) {
            LineInfo l = new LineInfo("rank-00000", 3, it, line().dataFile(), 9640, "f", false, line().references(), "j", 0, 1,
                    line().createdAt());
            String text = new String(CommitRecord.encode(l), StandardCharsets.UTF_8);
            int crc = text.lastIndexOf("crc32c ") + "crc32c ".length();
            String upper = text.substring(0, crc) + text.substring(crc).toUpperCase(Locale.ROOT);
            if (!upper.equals(text)) {
                assertThat(rejected(upper.getBytes(StandardCharsets.UTF_8))).hasMessageContaining("lowercase hex");
                return;
            }
        }
    }

    @Test
    void decode_valuesThatJacksonWouldCoerce_areRejected() {
        String json = json(line());
        assertThat(rejected(seal(json.replace("\"sequence\":3", "\"sequence\":\"abc\"")))).hasMessageContaining("'sequence' is not an integer");
        assertThat(rejected(seal(json.replace("\"sequence\":3", "\"sequence\":\"3\"")))).hasMessageContaining("'sequence' is not an integer");
        assertThat(rejected(seal(json.replace("\"rank\":0", "\"rank\":{}")))).hasMessageContaining("'rank' is not an integer");
        assertThat(rejected(seal(json.replace("\"full\":false", "\"full\":\"yes\"")))).hasMessageContaining("'full' is not true or false");
        assertThat(rejected(seal(json.replace("\"dataBytes\":9640", "\"dataBytes\":9640.0")))).hasMessageContaining("'dataBytes'");
        assertThat(rejected(seal(json.replace("\"jobId\":\"local\"", "\"jobId\":7")))).hasMessageContaining("'jobId' is not a string");
    }

    @Test
    void decode_recordClaimingAnotherLineSeriesOrDataFile_isRejected() {
        String json = json(line());
        assertThat(rejected(seal(json.replace("\"sequence\":3", "\"sequence\":1")))).hasMessageContaining("claims line 1");
        assertThat(rejected(seal(json.replace("\"series\":\"rank-00000\"", "\"series\":\"rank-00001\""))))
                .hasMessageContaining("claims series 'rank-00001'");
        assertThat(rejected(seal(json.replace("\"dataFile\":\"rank-00000/line-000000000003.ilc\"",
                "\"dataFile\":\"rank-00000/line-000000000001.ilc\"")))).hasMessageContaining("names data file");
        assertThat(rejected(seal(json.replace("rank-00000/line-000000000001.ilc\"]", "rank-00001/line-000000000001.ilc\"]"))))
                .hasMessageContaining("references rank-00001/line-000000000001.ilc");
        assertThat(rejected(seal(json.replace("rank-00000/line-000000000001.ilc\"]", "rank-00000/line-000000000004.ilc\"]"))))
                .hasMessageContaining("not the data file of an earlier line");
    }

    @Test
    void decode_inconsistentFields_areRejected() {
        String json = json(line());
        assertThat(rejected(seal(json.replace("\"full\":false", "\"full\":true")))).hasMessageContaining("full");
        assertThat(rejected(seal(json.replace("\"rank\":0", "\"rank\":2")))).hasMessageContaining("not below its worldSize");
        assertThat(rejected(seal(json.replace("\"iteration\":30,", "")))).hasMessageContaining("'iteration'");
        assertThat(rejected(seal(json.replace("{", "{\"rank\":0,")))).hasMessageContaining("not valid JSON");
    }

    @Test
    void decode_byteOrderMark_isRejected() {
        byte[] record = CommitRecord.encode(line());
        byte[] bom = new byte[record.length + 3];
        bom[0] = (byte) 0xEF;
        bom[1] = (byte) 0xBB;
        bom[2] = (byte) 0xBF;
        System.arraycopy(record, 0, bom, 3, record.length);

        assertThat(rejected(bom)).hasMessageContaining("byte-order mark");
    }

    @Test
    void decode_oversizedRecordOrString_isRejected() {
        String big = json(line()).replace("\"jobId\":\"local\"", "\"jobId\":\"" + "j".repeat(CommitRecord.MAX_STRING_CHARS + 1) + "\"");
        assertThat(rejected(seal(big))).hasMessageContaining("not valid JSON within limits");
        String huge = json(line()).replace("\"jobId\":\"local\"", "\"jobId\":\"local\",\"pad\":\"" + "p".repeat(CommitRecord.MAX_BYTES) + "\"");
        assertThat(rejected(seal(huge))).hasMessageContaining("larger than");
    }

    @Test
    void decode_damagedCrc_isAChecksumMismatch() {
        byte[] record = CommitRecord.encode(line());
        record[CommitRecord.MAGIC_LINE.length() + 3] ^= 1;

        assertThat(rejected(record)).isInstanceOf(ChecksumMismatchException.class);
    }

    @Test
    void decode_newerVersion_throwsUnsupportedVersionNamingTheUpgrade() {
        CorruptCheckpointException e = rejected(seal("IRONLOOP-COMMIT 2\n", json(line())));

        assertThat(e).isInstanceOf(UnsupportedVersionException.class).hasMessageContaining("written by a newer Ironloop")
                .hasMessageContaining("upgrade");
        assertThat(((UnsupportedVersionException) e).newer()).isTrue();
        assertThatThrownBy(() -> CommitRecord.decode(seal("IRONLOOP-COMMIT 01\n", json(line())), NAME))
                .isInstanceOf(CorruptCheckpointException.class).isNotInstanceOf(UnsupportedVersionException.class);
    }
}
