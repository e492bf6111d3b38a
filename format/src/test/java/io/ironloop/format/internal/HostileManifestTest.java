package io.ironloop.format.internal;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.ironloop.format.Checkpoints;
import io.ironloop.format.ChunkResolver;
import io.ironloop.format.CorruptCheckpointException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Manifests with valid CRCs but hostile contents: each is rejected with a specific message. */
class HostileManifestTest {
    private static final String VALID = Forge.manifest();
    private static final String FIRST_CHUNK = "{\"index\":0,\"rawLength\":4096,\"file\":null,\"offset\":4096,\"storedLength\":4096";

    private static String replace(String from, String to) {
        assertThat(VALID).contains(from);
        return VALID.replaceFirst(java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to));
    }

    private static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    static Stream<Arguments> hostile() {
        return Stream.of(
                Arguments.of("offset beyond EOF", replace(FIRST_CHUNK, FIRST_CHUNK.replace("\"offset\":4096", "\"offset\":999999999999")), "is stored at 999999999999"),
                Arguments.of("negative stored length", replace(FIRST_CHUNK, FIRST_CHUNK.replace("\"storedLength\":4096", "\"storedLength\":-5")), "storedLength = -5 is outside"),
                Arguments.of("negative dimension", replace("\"shape\":[600]", "\"shape\":[-600]"), "dimension = -600 is outside"),
                Arguments.of("raw length over the chunk limit", replace(FIRST_CHUNK, FIRST_CHUNK.replace("\"rawLength\":4096", "\"rawLength\":9999999999")), "rawLength = 9999999999 is outside"),
                Arguments.of("huge element count", replace("\"shape\":[600],\"scope\":\"LOCAL\",\"codec\":\"NONE\",\"byteLength\":4800",
                        "\"shape\":[1000000000000000],\"scope\":\"LOCAL\",\"codec\":\"NONE\",\"byteLength\":8000000000000000"), "needs 1953125000000 chunks"),
                Arguments.of("shape overflowing a long", replace("\"shape\":[600]", "\"shape\":[4611686018427387904,4]"), "is invalid"),
                Arguments.of("too many dimensions", replace("\"shape\":[600]", "\"shape\":[" + "1,".repeat(40) + "600]"), "more than 32 dimensions"),
                Arguments.of("byteLength disagreeing with shape", replace("\"byteLength\":4800", "\"byteLength\":4808"), "records byteLength 4808"),
                Arguments.of("deep nesting", replace("\"entries\":", "\"x\":" + nested(10_000) + ",\"entries\":"), "not valid JSON within limits"),
                Arguments.of("number with many digits", replace("\"iteration\":7", "\"iteration\":" + "9".repeat(40)), "not valid JSON within limits"),
                Arguments.of("number beyond long", replace("\"iteration\":7", "\"iteration\":99999999999999999999"), "iteration is not an integer in range"),
                Arguments.of("fractional number", replace("\"rank\":1", "\"rank\":1.5"), "rank is not an integer in range"),
                Arguments.of("string over the limit", replace("\"scheduler\":\"test\"", "\"scheduler\":\"" + "x".repeat((1 << 20) + 1) + "\""), "not valid JSON within limits"),
                Arguments.of("duplicate key", replace("\"rank\":1", "\"rank\":1,\"rank\":0"), "not valid JSON within limits"),
                Arguments.of("wrong type", replace("{\"index\":0", "{\"index\":\"0\""), "index is not an integer"),
                Arguments.of("missing field", VALID.replaceFirst("\"crc32c\":[0-9]+,", ""), "required field 'crc32c' is missing"),
                Arguments.of("major version disagreeing with the header", replace("\"formatVersion\":1", "\"formatVersion\":2"), "declares format version 2"),
                Arguments.of("absolute reference", replace("\"file\":null,\"offset\":4096", "\"file\":\"/etc/passwd\",\"offset\":4096"), "reference"),
                Arguments.of("parent reference", replace("\"file\":null,\"offset\":4096", "\"file\":\"../other/rank-0.ilc\",\"offset\":4096"), "'..' segment"),
                Arguments.of("inner parent reference", replace("\"file\":null,\"offset\":4096", "\"file\":\"a/../../b\",\"offset\":4096"), "'..' segment"),
                Arguments.of("drive reference", replace("\"file\":null,\"offset\":4096", "\"file\":\"C:x\",\"offset\":4096"), "':'"),
                Arguments.of("self reference", replace("\"file\":null,\"offset\":4096", "\"file\":\"" + Forge.NAME + "\",\"offset\":4096"), "its own file"),
                Arguments.of("padding of a whole page", replace(FIRST_CHUNK, FIRST_CHUNK.replace("\"offset\":4096", "\"offset\":8192")), "is stored at 8192"),
                Arguments.of("padding before an unaligned chunk", replace(FIRST_CHUNK, FIRST_CHUNK.replace("\"offset\":4096", "\"offset\":4000")), "is stored at 4000"),
                Arguments.of("missing padding CRC", VALID.replaceFirst(",\"paddingCrc32c\":[0-9]+", ""), "required field 'paddingCrc32c'"),
                Arguments.of("gap in chunk indices", replace("{\"index\":1,", "{\"index\":5,"), "index 5 where 1 was expected"),
                Arguments.of("zero chunk with a location", replace("\"offset\":-1,\"storedLength\":0", "\"offset\":4096,\"storedLength\":0"), "a zero chunk must"),
                Arguments.of("shuffled raw chunk", replace(FIRST_CHUNK + ",\"codec\":\"NONE\",\"shuffled\":false", FIRST_CHUNK + ",\"codec\":\"NONE\",\"shuffled\":true"), "shuffled is set"),
                Arguments.of("raw chunk with a short stored length", replace(FIRST_CHUNK, FIRST_CHUNK.replace("\"storedLength\":4096", "\"storedLength\":4000")), "does not fit codec NONE"),
                Arguments.of("crc beyond 32 bits", VALID.replaceFirst("\"crc32c\":[0-9]+", "\"crc32c\":4294967296"), "crc32c = 4294967296 is outside"),
                Arguments.of("bad hash", VALID.replaceFirst("\"hash\":\"[0-9a-f]+\"", "\"hash\":\"XYZ\""), "hash is not 64 lowercase hex digits"),
                Arguments.of("bad timestamp", replace("\"createdAt\":\"2025-11-21T12:00:00Z\"", "\"createdAt\":\"yesterday\""), "ISO-8601"),
                Arguments.of("rank beyond world size", replace("\"rank\":1", "\"rank\":9"), "bad file meta"),
                Arguments.of("unknown element type", replace("\"type\":\"DOUBLE\"", "\"type\":\"QUAD\""), "'QUAD' is not one of"),
                Arguments.of("entries not an array", replace("\"entries\":[", "\"entries\":{\"x\":[").replace("],\"paddingCrc32c\"", "]},\"paddingCrc32c\""), "expected START_ARRAY"),
                Arguments.of("duplicate entry name", replace("\"name\":\"b\"", "\"name\":\"a\""), "appears twice"),
                Arguments.of("data after the object", VALID + " {}", "data after the manifest"),
                Arguments.of("not JSON at all", "this is not json", "not valid JSON"),
                Arguments.of("empty object", "{}", "required field 'format' is missing"),
                Arguments.of("another format", replace("\"ironloop-checkpoint\"", "\"zip\""), "format is not"),
                Arguments.of("wrong chunk size", replace("\"chunkSize\":4096", "\"chunkSize\":5000"), "not a power of two"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostile")
    void open_hostileManifest_throwsCorruptNamingFileAndOffset(String what, String json, String expected) {
        byte[] file = Forge.withManifest(json);

        assertThatThrownBy(() -> Checkpoints.open(file, Forge.NAME, ChunkResolver.NONE))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageStartingWith(Forge.NAME + " at offset ")
                .hasMessageContaining(expected);
    }

    @Test
    void open_deeplyNestedManifest_chainsTheParsersLimitException() {
        byte[] file = Forge.withManifest(VALID.replace("\"entries\":", "\"x\":" + nested(100) + ",\"entries\":"));

        assertThatThrownBy(() -> Checkpoints.open(file, Forge.NAME, ChunkResolver.NONE))
                .isInstanceOf(CorruptCheckpointException.class).hasCauseInstanceOf(StreamConstraintsException.class);
    }

    @Test
    void open_tooManyEntries_stopsCountingAtTheLimit() {
        StringBuilder entries = new StringBuilder();
        for (int i = 0; i <= Layout.MAX_ENTRIES; i++) {
            entries.append(i == 0 ? "" : ",").append("{\"name\":\"e").append(i)
                    .append("\",\"type\":\"BYTE\",\"shape\":[0],\"scope\":\"LOCAL\",\"codec\":\"NONE\",\"byteLength\":0,\"chunks\":[]}");
        }
        byte[] file = Forge.withManifest(VALID.replaceFirst("\"entries\":\\[.*],\"paddingCrc32c\"", "\"entries\":[" + entries + "],\"paddingCrc32c\""));

        assertThatThrownBy(() -> Checkpoints.open(file, Forge.NAME, ChunkResolver.NONE))
                .isInstanceOf(CorruptCheckpointException.class).hasMessageContaining("more than 65536 entries");
    }

    @Test
    void open_payloadBytesOutsideEveryChunk_throwsCorruptAtTheGap() {
        Forge.Parts parts = Forge.split(Forge.valid());
        byte[] payload = java.util.Arrays.copyOf(parts.payload(), parts.payload().length + 10);

        assertThatThrownBy(() -> Checkpoints.open(Forge.file(FileHeader.CURRENT, payload, parts.json()), Forge.NAME, ChunkResolver.NONE))
                .isInstanceOf(CorruptCheckpointException.class).hasMessageContaining("belong to no chunk")
                .extracting(e -> ((CorruptCheckpointException) e).offset()).isEqualTo((long) Layout.PAYLOAD_START + parts.payload().length);
    }

    @Test
    void open_unknownFieldsEverywhere_areIgnoredForForwardCompatibility() throws IOException {
        String json = VALID.replace("{\"index\":", "{\"future\":{\"a\":[1,2,{}]},\"index\":")
                .replace("\"jobId\":", "\"region\":\"eu\",\"jobId\":")
                .replace("{\"name\":", "{\"layout\":\"rowMajor\",\"name\":")
                .replaceFirst("^\\{", "{\"signature\":null,");

        byte[] file = Forge.withManifest(json);

        assertThat(Checkpoints.readAll(Checkpoints.open(file, Forge.NAME, ChunkResolver.NONE)))
                .isEqualTo(Checkpoints.readAll(Checkpoints.open(Forge.valid(), Forge.NAME, ChunkResolver.NONE)));
    }
}
