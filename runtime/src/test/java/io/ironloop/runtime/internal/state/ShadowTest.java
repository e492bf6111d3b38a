package io.ironloop.runtime.internal.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ironloop.core.Snapshotable;
import io.ironloop.core.StateSink;
import io.ironloop.core.StateSource;

/** A registered entity swaps only when the committed line holds its newest snapshot. */
class ShadowTest {
    private final List<Integer> swapped = new ArrayList<>();
    private int saves;
    private final Snapshotable entity = new Snapshotable() {
        @Override
        public void save(StateSink sink) {
            saves++;
            sink.putBytes(ByteBuffer.allocate(4).putInt(0, saves));
        }

        @Override
        public void restore(StateSource source) {
        }

        @Override
        public void swap() {
            swapped.add(saves);
        }
    };

    @Test
    void lineCommitted_holdingTheNewestSave_swaps() {
        Snapshotable shadow = (Snapshotable) Shadow.ofEntity("e", entity);
        shadow.save(new ByteArraySink());
        shadow.swap();
        assertThat(swapped).containsExactly(1);
    }

    @Test
    void lineCommitted_afterTheEntityWasPublishedAgain_doesNotSwap_theNextLineDoes() {
        Shadow shadow = Shadow.ofEntity("e", entity);
        Snapshotable engineSide = (Snapshotable) shadow;
        engineSide.save(new ByteArraySink()); // line 1 holds save 1
        shadow.publish();                      // save 2 overwrites the entity's writable buffer
        engineSide.swap();                     // line 1 committed: its snapshot is no longer the entity's newest
        assertThat(swapped).isEmpty();
        engineSide.save(new ByteArraySink()); // line 2 holds save 2
        engineSide.swap();
        assertThat(swapped).containsExactly(2);
    }
}
