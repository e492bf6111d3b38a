package io.ironloop.format.internal;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

class ZeroBytesTest {
    @Test
    void isZero_singleNonZeroByteAnywhere_isFound() {
        int n = (200 << 10) + 13;
        for (ByteBuffer b : new ByteBuffer[] {ByteBuffer.allocate(n), ByteBuffer.allocateDirect(n)}) {
            assertThat(ZeroBytes.isZero(b)).isTrue();
            for (int at : new int[] {0, 1, 65535, 65536, 131071, n - 1}) {
                b.put(at, (byte) 1);
                assertThat(ZeroBytes.isZero(b)).as("byte %d", at).isFalse();
                assertThat(ZeroBytes.isZero(b.duplicate().position(at + 1))).isTrue();
                b.put(at, (byte) 0);
            }
        }
    }

    @Test
    void fill_range_zeroesExactlyThatRange() {
        ByteBuffer b = ByteBuffer.allocate(300_000);
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, (byte) 7);
        }

        ZeroBytes.fill(b, 10, 200_000);

        assertThat(b.get(9)).isEqualTo((byte) 7);
        assertThat(ZeroBytes.isZero(b.slice(10, 200_000))).isTrue();
        assertThat(b.get(200_010)).isEqualTo((byte) 7);
    }
}
