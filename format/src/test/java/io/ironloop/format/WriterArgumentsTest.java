package io.ironloop.format;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WriterArgumentsTest {
    private static final EntryHeader X = new EntryHeader("x", ElementType.INT, new long[] {4}, Scope.LOCAL, Codec.NONE);

    private static CheckpointWriter writer(MemoryChannel ch) throws IOException {
        return CheckpointWriter.open(ch, "x.ilc", Checkpoints.meta(1), WriterOptions.DEFAULT, null);
    }

    @Test
    void writeEntry_wrongLengthOrDuplicateName_throwsIllegalArgumentAndStaysUsable() throws IOException {
        MemoryChannel ch = new MemoryChannel();
        CheckpointWriter w = writer(ch);
        w.writeEntry(X, ByteBuffer.allocate(16));

        assertThatThrownBy(() -> w.writeEntry(new EntryHeader("y", ElementType.INT, new long[] {4}, Scope.LOCAL, Codec.NONE),
                ByteBuffer.allocate(15))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("15");
        assertThatThrownBy(() -> w.writeEntry(X, ByteBuffer.allocate(16))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already");
        w.finish();
        assertThat(Checkpoints.open(ch.toByteArray()).manifest().entries()).hasSize(1);
    }

    @Test
    void writeEntry_afterFinish_throwsIllegalState() throws IOException {
        CheckpointWriter w = writer(new MemoryChannel());
        w.finish();

        assertThatThrownBy(() -> w.writeEntry(X, ByteBuffer.allocate(16))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("finished");
        assertThatThrownBy(w::finish).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void writeEntry_channelFailsMidWrite_breaksTheWriter() throws IOException {
        int[] budget = {100};
        WritableByteChannel failing = new WritableByteChannel() {
            @Override
            public int write(ByteBuffer src) throws IOException {
                if (budget[0] < src.remaining()) {
                    throw new IOException("No space left on device");
                }
                budget[0] -= src.remaining();
                int n = src.remaining();
                src.position(src.limit());
                return n;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
            }
        };
        CheckpointWriter w = CheckpointWriter.open(failing, "x.ilc", Checkpoints.meta(1), WriterOptions.DEFAULT, null);

        assertThatThrownBy(() -> w.writeEntry(new EntryHeader("big", ElementType.BYTE, new long[] {1000}, Scope.LOCAL, Codec.NONE),
                Checkpoints.randomBytes(new java.util.Random(1), 1000))).isInstanceOf(IOException.class);
        assertThatThrownBy(w::finish).isInstanceOf(IllegalStateException.class).hasMessageContaining("failure");
    }

    @Test
    void writeEntry_dataBuffer_positionAndLimitUnchanged() throws IOException {
        ByteBuffer data = ByteBuffer.allocate(40).position(8).limit(24);
        CheckpointWriter w = writer(new MemoryChannel());

        w.writeEntry(X, data);

        assertThat(data.position()).isEqualTo(8);
        assertThat(data.limit()).isEqualTo(24);
    }

    @Test
    void open_badFileNameOrChannelPosition_throwsIllegalArgument() {
        for (String bad : new String[] {"", "/abs/x.ilc", "../x.ilc", "a//b", "a/./b", "a\\b", "c:x"}) {
            assertThatThrownBy(() -> CheckpointWriter.open(new MemoryChannel(), bad, Checkpoints.meta(1), WriterOptions.DEFAULT, null))
                    .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("store-relative");
        }
        MemoryChannel moved = new MemoryChannel();
        moved.position(3);
        assertThatThrownBy(() -> CheckpointWriter.open(moved, "x.ilc", Checkpoints.meta(1), WriterOptions.DEFAULT, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("position 3");
    }

    @Test
    void open_metaBeyondTheReadersLimits_throwsIllegalArgument() {
        FileMeta huge = new FileMeta("j", 1, 0, 1, "f", Instant.EPOCH, Map.of("k", "v".repeat((1 << 20) + 1)));

        assertThatThrownBy(() -> CheckpointWriter.open(new MemoryChannel(), "x.ilc", huge, WriterOptions.DEFAULT, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limits");
    }

    @Test
    void readEntry_wrongTargetOrUnknownName_throwsIllegalArgument() throws IOException {
        MemoryChannel ch = new MemoryChannel();
        CheckpointWriter w = writer(ch);
        w.writeEntry(X, ByteBuffer.allocate(16));
        w.finish();
        CheckpointReader r = Checkpoints.open(ch.toByteArray());

        assertThatThrownBy(() -> r.readEntry("x", ByteBuffer.allocate(15))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.readEntry("x", ByteBuffer.allocate(16).asReadOnlyBuffer())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.readEntry("nope", ByteBuffer.allocate(16))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[x]");
    }
}
