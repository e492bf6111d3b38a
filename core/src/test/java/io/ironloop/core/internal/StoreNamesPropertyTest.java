package io.ironloop.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.format.internal.StoreNames;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded property tests of the one store-name grammar ({@link StoreNames}), across the layers that use it:
 * every name the engine writes is valid, parses back to its series, line and rank, and round-trips through
 * both stores; random names drawn from the grammar round-trip through both stores; random hostile strings
 * are either rejected by the format, the stores and commit-record names alike, or stay inside the store.
 */
class StoreNamesPropertyTest {
    private static final String LEGAL = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
    private static final String HOSTILE = LEGAL + "/\\:. \u0000\n\u00fc\u540d*?~$";

    @TempDir
    Path dir;

    @Test
    void engineNames_randomRankSeriesAndLine_validAndParseBack() {
        Random rnd = new Random(11);
        for (int i = 0; i < 2000; i++) {
            int rank = i < 3 ? new int[] {0, 99_999, 999_999_999}[i] : rnd.nextInt(1_000_000);
            long line = i < 3 ? new long[] {1, 999_999_999_999L, 42}[i] : 1 + (rnd.nextLong() >>> 24) % 999_999_999_999L;
            String series = LineCatalog.rankSeries(rank);
            assertThat(LineCatalog.rankOf(series)).isEqualTo(rank);
            for (String name : new String[] {LineCatalog.dataFile(series, line), LineCatalog.commitFile(series, line),
                    LineCatalog.dataFile("global", line)}) {
                assertThat(StoreNames.check(name)).isEqualTo(name);
                String file = name.substring(name.indexOf('/') + 1);
                var m = LineCatalog.Patterns.LINE_FILE.matcher(file);
                assertThat(m.matches()).as(name).isTrue();
                assertThat(Long.parseLong(m.group(1))).isEqualTo(line);
                assertThat(m.group(3)).isNull();
                assertThat(LineCatalog.Patterns.LINE_FILE.matcher(file + StoreNames.TEMP_SUFFIX).matches()).isTrue();
                assertThat(StoreNames.problem(file + StoreNames.TEMP_SUFFIX)).isNotNull();
            }
        }
        for (String notRank : new String[] {"rank-7", "rank-000007", "rank-1234567890", "global", "rank-0000x", "Rank-00001"}) {
            assertThat(LineCatalog.rankOf(notRank)).as(notRank).isEqualTo(-1);
        }
    }

    @Test
    void randomGrammarNames_roundTripThroughBothStores() throws Exception {
        Random rnd = new Random(12);
        try (Store disk = Store.directory(dir.resolve("store")); Store memory = Store.inMemory()) {
            for (int i = 0; i < 120; i++) {
                String name = part(rnd) + "/" + part(rnd);
                if (name.endsWith(StoreNames.TEMP_SUFFIX)) {
                    continue;
                }
                assertThat(StoreNames.check(name)).isEqualTo(name);
                byte[] content = name.getBytes(StandardCharsets.UTF_8);
                for (Store s : new Store[] {disk, memory}) {
                    write(s, name, content);
                    assertThat(read(s, name)).as(name).isEqualTo(content);
                    assertThat(s.listFiles(StoreNames.series(name))).contains(name);
                    assertThat(StoreCatalog.NAME.matcher(StoreNames.series(name)).matches()).isTrue();
                }
            }
        }
    }

    @Test
    void randomHostileStrings_formatAndStoresAgree_andAcceptedNamesStayInside() throws Exception {
        Random rnd = new Random(13);
        Path root = dir.resolve("hostile").toAbsolutePath().normalize();
        int accepted = 0;
        try (Store disk = Store.directory(root); Store memory = Store.inMemory()) {
            for (int i = 0; i < 5000; i++) {
                StringBuilder b = new StringBuilder();
                int len = 1 + rnd.nextInt(12);
                for (int k = 0; k < len; k++) {
                    b.append(HOSTILE.charAt(rnd.nextInt(HOSTILE.length())));
                }
                String name = b.toString();
                boolean formatValid = StoreNames.problem(name) == null && name.indexOf('/') > 0 && name.indexOf('/') == name.lastIndexOf('/');
                boolean checkValid = valid(name);
                assertThat(checkValid).as("'%s'", name).isEqualTo(formatValid);
                if (checkValid) {
                    accepted++;
                    assertThat(root.resolve(name).normalize().startsWith(root)).as(name).isTrue();
                    assertThat(root.resolve(name).normalize()).isEqualTo(root.resolve(name));
                } else {
                    for (Store s : new Store[] {disk, memory}) {
                        assertThatThrownBy(() -> s.openRead(name)).as("'%s'", name).isInstanceOf(IllegalArgumentException.class);
                    }
                }
            }
        }
        assertThat(accepted).as("the generator also produces valid names").isGreaterThan(50);
    }

    @Test
    void randomHostileStrings_seriesCheckAgreesWithTheGrammarsPattern() {
        Random rnd = new Random(14);
        int accepted = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder();
            int len = 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? StoreNames.MAX_PART_CHARS + 8 : 12);
            for (int k = 0; k < len; k++) {
                b.append(HOSTILE.charAt(rnd.nextInt(HOSTILE.length())));
            }
            String series = b.toString();
            boolean byPattern = StoreNames.Patterns.PART.matcher(series).matches() && !series.endsWith(StoreNames.TEMP_SUFFIX);
            boolean byCheck;
            try {
                byCheck = StoreNames.checkSeries(series).equals(series);
            } catch (IllegalArgumentException e) {
                byCheck = false;
            }
            assertThat(byCheck).as("'%s'", series).isEqualTo(byPattern);
            accepted += byCheck ? 1 : 0;
        }
        assertThat(accepted).as("the generator also produces valid series").isGreaterThan(200);
    }

    private static boolean valid(String name) {
        try {
            StoreNames.check(name);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String part(Random rnd) {
        StringBuilder b = new StringBuilder();
        int len = 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? StoreNames.MAX_PART_CHARS : 16);
        String first = LEGAL.replace(".", "");
        b.append(first.charAt(rnd.nextInt(first.length())));
        for (int k = 1; k < len; k++) {
            b.append(LEGAL.charAt(rnd.nextInt(LEGAL.length())));
        }
        return b.toString();
    }

    private static void write(Store s, String name, byte[] content) throws Exception {
        try (Store.PendingFile f = s.create(name)) {
            f.channel().write(ByteBuffer.wrap(content));
            f.publish();
        }
    }

    private static byte[] read(Store s, String name) throws Exception {
        try (SeekableByteChannel ch = s.openRead(name)) {
            ByteBuffer b = ByteBuffer.allocate((int) ch.size());
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // read all
            }
            return b.array();
        }
    }
}
