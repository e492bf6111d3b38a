package io.ironloop.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.group.GroupListener;
import io.ironloop.group.InJvmCluster;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DeLIA's frequency keys with non-zero values, on a one-rank job whose gates read an injected clock: the time
 * gates count from the runtime's start until the first save, then from the last save, and every configured
 * gate must pass (the semantics in the README's configuration table).
 */
class FrequencyGatesTest {
    private static final long S = 1_000_000_000L;

    @TempDir
    Path dir;

    private final AtomicLong clock = new AtomicLong(1000 * S);

    private void run(Map<String, String> keys, Consumer<Ironloop> body) {
        Map<String, String> overrides = new HashMap<>(keys);
        overrides.put("FT_FOLDER", dir.resolve("ft").toString());
        Parameters p = Parameters.load(RuntimeKeys.TABLE, null, Map.of(), overrides);
        try (InJvmCluster cluster = InJvmCluster.open("gates", 1, r -> GroupListener.NONE);
             Ironloop ft = Ironloop.builder().parameters(p).clock(clock::get).joinWith(l -> cluster.group(0)).start()) {
            ft.registerGlobal("g", new long[1]);
            ft.registerLocal("l", new long[1]);
            body.accept(ft);
        }
    }

    private void at(long seconds) {
        clock.set(1000 * S + seconds * S);
    }

    private List<Long> lines(String series) throws Exception {
        try (Store s = Store.directory(dir.resolve("ft"))) {
            return StoreCatalog.of(s).lines(series).stream().map(LineInfo::iteration).toList();
        }
    }

    @Test
    void timeGlobal_firstSaveOneIntervalAfterStart_thenOneIntervalAfterTheLastSave() throws Exception {
        run(Map.of("CHECKPOINTING_TIME_GLOBAL", "10", "RETAIN_LINES", "10"), ft -> {
            at(1);
            assertThat(ft.saveGlobal()).as("1 s after start").isFalse();
            at(9);
            assertThat(ft.saveGlobal()).as("9 s after start").isFalse();
            at(10);
            assertThat(ft.saveGlobal()).as("10 s after start").isTrue();
            at(19);
            assertThat(ft.saveGlobal()).as("9 s after the save").isFalse();
            at(21);
            assertThat(ft.saveGlobal()).as("11 s after the save").isTrue();
            at(22);
            assertThat(ft.saveGlobal()).isFalse();
        });
        assertThat(lines(Ironloop.GLOBAL_SERIES)).containsExactly(3L, 5L);
    }

    @Test
    void iterationAndTimeGlobal_bothGatesMustPass() throws Exception {
        run(Map.of("CHECKPOINTING_GLOBAL_ITERATION", "2", "CHECKPOINTING_TIME_GLOBAL", "5s", "RETAIN_LINES", "10"), ft -> {
            at(6);
            assertThat(ft.saveGlobal()).as("call 1: time passes, count does not").isFalse();
            assertThat(ft.saveGlobal()).as("call 2: both pass").isTrue();
            at(8);
            assertThat(ft.saveGlobal()).isFalse();
            assertThat(ft.saveGlobal()).as("call 4: count passes, 2 s since the save").isFalse();
            at(12);
            assertThat(ft.saveGlobal()).as("call 5: time passes, count does not").isFalse();
            assertThat(ft.saveGlobal()).as("call 6: both pass").isTrue();
        });
        assertThat(lines(Ironloop.GLOBAL_SERIES)).containsExactly(2L, 6L);
    }

    @Test
    void timeLocalAndDiffLocal_bothGapsMustPass_countedFromStartThenFromTheLastSave() throws Exception {
        run(Map.of("CHECKPOINTING_TIME_LOCAL", "10s", "CHECKPOINTING_TIME_DIFF_LOCAL", "0.5min",
                "CHECKPOINTING_LOCAL_RECENT", "false", "RETAIN_LINES", "10"), ft -> {
            at(10);
            assertThat(ft.saveLocal()).as("TIME_LOCAL passed, TIME_DIFF_LOCAL (30 s) not").isFalse();
            at(30);
            assertThat(ft.saveLocal()).as("both passed").isTrue();
            at(45);
            assertThat(ft.saveLocal()).as("15 s after the save").isFalse();
            at(60);
            assertThat(ft.saveLocal()).as("30 s after the save").isTrue();
        });
        assertThat(lines("rank-00000")).hasSize(2);
    }

    @Test
    void noLocalGate_saveLocalNeverSaves_noGlobalGate_everyCallSaves() throws Exception {
        run(Map.of("RETAIN_LINES", "10"), ft -> {
            at(3600);
            assertThat(ft.saveLocal()).isFalse();
            assertThat(ft.saveGlobal()).isTrue();
            assertThat(ft.saveGlobal()).isTrue();
        });
        assertThat(lines("rank-00000")).isEmpty();
        assertThat(lines(Ironloop.GLOBAL_SERIES)).containsExactly(1L, 2L);
    }
}
