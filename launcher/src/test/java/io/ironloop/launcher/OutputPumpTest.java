package io.ironloop.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A rank's output forwarded by the launcher stays text, whatever bytes the rank writes. */
class OutputPumpTest {
    private static List<String> pump(byte[] bytes, List<String> seen) throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream target = new PrintStream(sink, true, StandardCharsets.UTF_8);
        Thread t = OutputPump.start(new ByteArrayInputStream(bytes), target, 0, 3, true,
                (attempt, rank, stderr, line) -> seen.add(line), new LauncherLog(target));
        t.join(10_000);
        assertThat(t.isAlive()).isFalse();
        return sink.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static boolean isText(String line) {
        return line.chars().noneMatch(c -> (Character.isISOControl(c) && c != '\t') || c == 0x2028 || c == 0x2029);
    }

    @Test
    void threadNameWithRawBytes_isEscapedInTheForwardedLine() throws Exception {
        byte[] line = "[jgroups-\u0001\u001b[2J,ironloop\u0000] WARN io.ironloop.X - lost\n".getBytes(Charset.defaultCharset());
        List<String> seen = new ArrayList<>();
        assertThat(pump(line, seen)).containsExactly("[3] [jgroups-\\u0001\\u001b[2J,ironloop\\u0000] WARN io.ironloop.X - lost");
        assertThat(seen).containsExactly("[jgroups-\\u0001\\u001b[2J,ironloop\\u0000] WARN io.ironloop.X - lost");
    }

    @Test
    void ordinaryText_isForwardedUnchanged() {
        for (String s : List.of("", "plain", "tab\there", "Grüße, 波, 🙂", "\\u0001 is written so")) {
            assertThat(OutputPump.printable(s)).isEqualTo(s);
        }
    }

    /** Seeded: random bytes, mixed with text and newlines, always come out as prefixed lines of text. */
    @Test
    void randomBytes_alwaysForwardedAsPrefixedText() throws Exception {
        Random random = new Random(17);
        for (int trial = 0; trial < 200; trial++) {
            byte[] bytes = new byte[random.nextInt(400)];
            random.nextBytes(bytes);
            int newlines = 0;
            for (int i = 0; i < bytes.length; i++) {
                if (random.nextInt(8) == 0) {
                    bytes[i] = (byte) ('a' + random.nextInt(26));
                } else if (bytes[i] == '\n' || bytes[i] == '\r') {
                    newlines++;
                }
            }
            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            List<String> lines = pump(bytes, seen);
            assertThat(lines).as("trial %d", trial).allSatisfy(l -> {
                assertThat(l).startsWith("[3] ");
                assertThat(isText(l)).as("text: %s", l).isTrue();
            });
            assertThat(seen).allMatch(OutputPumpTest::isText);
            assertThat(lines.size()).isLessThanOrEqualTo(newlines + 1);
        }
    }
}
