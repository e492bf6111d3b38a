package io.ironloop.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ironloop.config.Parameters;
import io.ironloop.core.Snapshotable;
import io.ironloop.core.StateSink;
import io.ironloop.core.StateSource;
import io.ironloop.group.InJvmCluster;

/**
 * Entities registered through the runtime get {@link Snapshotable#swap()} once the line holding their newest
 * snapshot is committed, as they do when protected on the engine directly (waLBerla's double buffer).
 */
class EntitySwapTest {
    @TempDir
    Path dir;

    /** A double-buffered entity: save fills the writable buffer; swap makes it the committed one. */
    static final class DoubleBuffered implements Snapshotable {
        long value;
        long writable = -1;
        long committed = -1;
        final List<Long> swaps = new CopyOnWriteArrayList<>();

        @Override
        public void save(StateSink sink) {
            writable = value;
            sink.putBytes(ByteBuffer.allocate(8).putLong(0, value));
        }

        @Override
        public void restore(StateSource source) {
            ByteBuffer b = ByteBuffer.allocate(8);
            source.getBytes(b);
            value = b.getLong(0);
        }

        @Override
        public void swap() {
            committed = writable;
            swaps.add(writable);
        }
    }

    @Test
    void registeredEntities_swapOnceTheirNewestSnapshotIsCommitted() {
        DoubleBuffered global = new DoubleBuffered();
        DoubleBuffered local = new DoubleBuffered();
        Parameters p = Parameters.load(RuntimeKeys.TABLE, null, Map.of(), Map.of("FT_FOLDER", dir.toString()));
        try (InJvmCluster cluster = InJvmCluster.open("job", 1);
             Ironloop ft = Ironloop.builder().parameters(p)
                     .joinWith(l -> cluster.group(0)).start()) {
            ft.registerGlobal("global", global);
            ft.registerLocal("local", local);
            ft.canRecoverGlobal();
            ft.canRecoverLocal(); // per-rank state: saved with every global line
            for (long i = 1; i <= 3; i++) {
                global.value = i * 10;
                local.value = i * 100;
                ft.saveGlobal();
            }
            ft.complete("done"); // waits until the global lines are durable
            assertThat(global.committed).as("the global entity's newest snapshot is committed").isEqualTo(30);
            assertThat(global.swaps).isNotEmpty().allMatch(v -> v % 10 == 0 && v > 0).isSorted();
        }
        assertThat(local.committed).as("closing waits for the local lines: the newest one swaps").isEqualTo(300);
        assertThat(local.swaps).isNotEmpty().isSorted();
    }
}
