package io.ironloop.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The names {@link LineCatalog} makes: built without {@link java.util.Formatter}, exactly as it would format them. */
class LineCatalogTest {
    @Test
    void zeroPadded_seededValuesAndWidths_matchesStringFormat() {
        Random rnd = new Random(20261125);
        long[] edges = {0, 1, -1, 9, 10, 99_999, 100_000, 999_999_999_999L, 1_000_000_000_000L, Long.MAX_VALUE, Long.MIN_VALUE};
        for (int i = 0; i < 5000; i++) {
            long value = i < edges.length ? edges[i] : rnd.nextLong() >> rnd.nextInt(64);
            int width = 1 + rnd.nextInt(22);
            assertThat(LineCatalog.zeroPadded("p-", value, width)).as("%d in %d digits", value, width)
                    .isEqualTo("p-" + String.format(Locale.ROOT, "%0" + width + "d", value));
        }
    }

    @Test
    void names_ofLinesAndRanks_haveTheFormatsWidths() {
        assertThat(LineCatalog.lineName(42)).isEqualTo("line-000000000042");
        assertThat(LineCatalog.lineName(1_234_567_890_123L)).isEqualTo("line-1234567890123");
        assertThat(LineCatalog.dataFile("rank-00003", 7)).isEqualTo("rank-00003/line-000000000007.ilc");
        assertThat(LineCatalog.commitFile("global", 7)).isEqualTo("global/line-000000000007.commit");
        assertThat(LineCatalog.rankSeries(0)).isEqualTo("rank-00000");
        assertThat(LineCatalog.rankSeries(123_456)).isEqualTo("rank-123456");
    }

    @Test
    void sequenceOf_namesItMade_parseBackAndOthersDoNot() {
        assertThat(LineCatalog.sequenceOf(LineCatalog.dataFile("rank-00001", 17), null)).isEqualTo(17);
        assertThat(LineCatalog.sequenceOf(LineCatalog.commitFile("rank-00001", 17), LineCatalog.COMMIT_SUFFIX)).isEqualTo(17);
        assertThat(LineCatalog.sequenceOf(LineCatalog.commitFile("rank-00001", 17), LineCatalog.DATA_SUFFIX)).isEqualTo(-1);
        assertThat(LineCatalog.sequenceOf(LineCatalog.dataFile("rank-00001", 17) + ".tmp", null)).isEqualTo(-1);
        assertThat(LineCatalog.sequenceOf("rank-00001/.lock", null)).isEqualTo(-1);
    }
}
