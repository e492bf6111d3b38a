package io.ironloop.format.internal;

import io.ironloop.format.CheckpointReader;
import io.ironloop.format.Checkpoints;
import io.ironloop.format.ChunkResolver;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.EntryDescriptor;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded random mutations of a valid manifest, re-sealed with a correct CRC: every outcome is a clean
 * open-and-read or a {@link CorruptCheckpointException}, never another exception, an OutOfMemoryError
 * or a hang.
 */
class ManifestFuzzTest {
    private static final Pattern NUMBER = Pattern.compile("-?[0-9]+");
    private static final String[] NUMBERS = {"-1", "0", "1", "4095", "4096", "2147483647", "2147483648", "-2147483649",
        "9223372036854775807", "-9223372036854775808", "18446744073709551616", "67108864", "1e9", "0.5", "null", "\"7\""};
    private static final String PUNCTUATION = "{}[]\":,0-e\\u";
    private static final String[] TOKENS = {"null", "true", "false", "[]", "{}", "\"\"", "\"../x\"", "\"NONE\"", "\"ZSTD\"",
        "\"LZ4\"", "\"DOUBLE\"", "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]"};

    @Test
    void open_randomlyMutatedManifests_onlyEverFailWithCorruptCheckpoint() throws Exception {
        String valid = Forge.manifest();
        byte[] payload = Forge.split(Forge.valid()).payload();
        Random rnd = new Random(20251121);
        int opened = 0;
        int rejected = 0;
        for (int trial = 0; trial < 1500; trial++) {
            String json = valid;
            for (int m = 1 + rnd.nextInt(3); m > 0; m--) {
                json = mutate(json, rnd);
            }
            byte[] file = Forge.file(FileHeader.CURRENT, payload, json);
            try {
                CheckpointReader r = Checkpoints.open(file, Forge.NAME, ChunkResolver.NONE);
                for (EntryDescriptor e : r.manifest().entries()) {
                    if (e.header().byteLength() <= 64 << 20) {
                        r.readEntry(e.name(), ByteBuffer.allocate((int) e.header().byteLength()));
                    }
                }
                r.verify();
                opened++;
            } catch (CorruptCheckpointException e) {
                assertThat(e).hasMessageStartingWith(Forge.NAME + " at offset ");
                rejected++;
            } catch (Throwable t) {
                throw new AssertionError("trial " + trial + " failed with " + t + " on manifest " + json, t);
            }
        }
        assertThat(rejected).isGreaterThan(1000);
        assertThat(opened).isPositive();
    }

    private static String mutate(String json, Random rnd) {
        switch (rnd.nextInt(6)) {
            case 0 -> {
                Matcher m = NUMBER.matcher(json);
                int count = (int) m.results().count();
                if (count == 0) {
                    return json;
                }
                int target = rnd.nextInt(count);
                m.reset();
                for (int i = 0; i <= target; i++) {
                    m.find();
                }
                String replacement = rnd.nextBoolean() ? NUMBERS[rnd.nextInt(NUMBERS.length)] : Long.toString(rnd.nextLong() >> rnd.nextInt(64));
                return json.substring(0, m.start()) + replacement + json.substring(m.end());
            }
            case 1 -> {
                int at = rnd.nextInt(json.length());
                int end = Math.min(json.length(), at + 1 + rnd.nextInt(12));
                return json.substring(0, at) + json.substring(end);
            }
            case 2 -> {
                int at = rnd.nextInt(json.length());
                int end = Math.min(json.length(), at + 1 + rnd.nextInt(40));
                return json.substring(0, end) + json.substring(at, end) + json.substring(end);
            }
            case 3 -> {
                int at = rnd.nextInt(json.length());
                return json.substring(0, at) + PUNCTUATION.charAt(rnd.nextInt(PUNCTUATION.length())) + json.substring(at);
            }
            case 4 -> {
                Matcher m = Pattern.compile("null|true|false|\"[A-Z0-9]+\"").matcher(json);
                if (!m.find(rnd.nextInt(json.length()))) {
                    return json;
                }
                return json.substring(0, m.start()) + TOKENS[rnd.nextInt(TOKENS.length)] + json.substring(m.end());
            }
            default -> {
                int a = rnd.nextInt(json.length());
                char[] c = json.toCharArray();
                c[a] = (char) (32 + rnd.nextInt(95));
                return new String(c);
            }
        }
    }
}
