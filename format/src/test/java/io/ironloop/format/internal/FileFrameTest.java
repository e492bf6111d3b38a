package io.ironloop.format.internal;

import io.ironloop.format.ChecksumMismatchException;
import io.ironloop.format.Checkpoints;
import io.ironloop.format.ChunkResolver;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.UnsupportedVersionException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Header and trailer validation, with CRCs recomputed so that the checks behind them are reached. */
class FileFrameTest {
    private static byte[] withHeader(FileHeader header) {
        Forge.Parts parts = Forge.split(Forge.valid());
        return Forge.file(header, parts.payload(), parts.json());
    }

    private static CorruptCheckpointException openFails(byte[] file) {
        try {
            Checkpoints.open(file, Forge.NAME, ChunkResolver.NONE);
        } catch (CorruptCheckpointException e) {
            return e;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("opened");
    }

    @Test
    void layout_offsetsFollowEachOther_matchingTheSpecification() {
        assertThat(Layout.H_CRC).isEqualTo(16);
        assertThat(Layout.HEADER_SIZE).isEqualTo(20);
        assertThat(Layout.T_MAGIC).isEqualTo(20);
        assertThat(Layout.TRAILER_SIZE).isEqualTo(32);
        assertThat(FileHeader.CURRENT.encode().array()).startsWith(0x89, 'I', 'R', 'O', 'N', '\r', '\n', 0x1A, 1, 0, 0, 0);
    }

    @Test
    void open_newerMinorVersion_isRead() throws IOException {
        Forge.Parts parts = Forge.split(Forge.valid());
        String json = parts.json().replace("\"formatMinorVersion\":" + Layout.MINOR, "\"formatMinorVersion\":" + (Layout.MINOR + 7));
        byte[] file = Forge.file(new FileHeader(Layout.MAJOR, Layout.MINOR + 7, 0), parts.payload(), json);

        assertThat(Checkpoints.readAll(Checkpoints.open(file, Forge.NAME, ChunkResolver.NONE))).hasSize(3);
    }

    @Test
    void open_manifestMinorVersionDiffersFromHeader_isRejected() {
        CorruptCheckpointException e = openFails(withHeader(new FileHeader(Layout.MAJOR, Layout.MINOR + 1, 0)));

        assertThat(e).hasMessageContaining("format minor version " + Layout.MINOR + " but the header " + (Layout.MINOR + 1));
    }

    @Test
    void open_otherMajorVersion_throwsUnsupportedVersionWithClearMessage() {
        CorruptCheckpointException e = openFails(withHeader(new FileHeader(2, 3, 0)));

        assertThat(e).isInstanceOf(UnsupportedVersionException.class).hasMessageContaining("written by a newer Ironloop (format 2.3")
                .hasMessageContaining("upgrade Ironloop");
        assertThat(((UnsupportedVersionException) e).newer()).isTrue();
        assertThat(((UnsupportedVersionException) e).major()).isEqualTo(2);
        assertThat(e.offset()).isEqualTo(Layout.H_MAJOR);
    }

    @Test
    void open_unknownFlags_throwsCorrupt() {
        assertThat(openFails(withHeader(new FileHeader(Layout.MAJOR, 0, 0x10)))).hasMessageContaining("unknown header flags 0x00000010");
    }

    @Test
    void open_badMagicOrHeaderCrc_throwsSpecificErrors() {
        byte[] notOurs = Forge.valid();
        notOurs[1] = 'J';
        byte[] badCrc = Forge.valid();
        badCrc[Layout.H_FLAGS] = 1;

        assertThat(openFails(notOurs)).hasMessageContaining("not an Ironloop checkpoint file");
        assertThat(openFails(badCrc)).isInstanceOf(ChecksumMismatchException.class).hasMessageContaining("the header");
    }

    @Test
    void open_filesShorterThanTheFrame_throwCorruptWithTheirLength() {
        assertThat(openFails(new byte[0])).hasMessageContaining("0 bytes long");
        assertThat(openFails(new byte[5])).hasMessageContaining("shorter than a header");
        byte[] headerOnly = FileHeader.CURRENT.encode().array();
        assertThat(openFails(headerOnly)).hasMessageContaining("shorter than header, manifest and trailer");
    }

    @Test
    void open_trailerPointingOutsideTheFile_throwsCorruptBeforeAllocating() {
        byte[] file = Forge.valid();
        long size = file.length;
        for (long[] lie : new long[][] {{20, 100L << 20}, {20, Long.MAX_VALUE}, {-5, 10}, {size, 10}, {20, 1}}) {
            ByteBuffer trailer = new FileTrailer(lie[0], lie[1], 0).encode();
            byte[] forged = file.clone();
            System.arraycopy(trailer.array(), 0, forged, file.length - Layout.TRAILER_SIZE, Layout.TRAILER_SIZE);

            assertThat(openFails(forged)).as("offset %d length %d", lie[0], lie[1]).hasMessageContaining("manifest");
        }
    }

    @Test
    void open_manifestCrcMismatch_reportsBothValues() {
        byte[] file = Forge.valid();
        ByteBuffer t = ByteBuffer.wrap(file, file.length - Layout.TRAILER_SIZE, Layout.TRAILER_SIZE).slice().order(ByteOrder.LITTLE_ENDIAN);
        FileTrailer good = FileTrailer.decode(t, Forge.NAME, file.length);
        byte[] forged = file.clone();
        System.arraycopy(new FileTrailer(good.manifestOffset(), good.manifestLength(), good.manifestCrc() ^ 1).encode().array(), 0,
                forged, file.length - Layout.TRAILER_SIZE, Layout.TRAILER_SIZE);

        CorruptCheckpointException e = openFails(forged);

        assertThat(e).isInstanceOf(ChecksumMismatchException.class).hasMessageContaining("the manifest");
        assertThat(e.offset()).isEqualTo(good.manifestOffset());
        assertThat(((ChecksumMismatchException) e).stored()).isEqualTo(good.manifestCrc() ^ 1);
    }
}
