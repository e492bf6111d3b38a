package io.ironloop.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class ResultDigestTest {

    @Test
    void hex_nothingFed_isSha256OfEmptyInput() {
        assertThat(new ResultDigest().hex())
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void hex_manyDoublesThenLong_isSha256OfTheirLittleEndianBytes() throws Exception {
        double[] values = new double[1000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 0.1 - 3;
        }
        ByteBuffer bytes = ByteBuffer.allocate(8 * 1001).order(ByteOrder.LITTLE_ENDIAN);
        for (double v : values) {
            bytes.putLong(Double.doubleToRawLongBits(v));
        }
        bytes.putLong(7L);
        String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes.array()));

        assertThat(new ResultDigest().putDoubles(values).putLong(7L).hex()).isEqualTo(expected);
        assertThat(new ResultDigest().putDoubles(values).putLong(7L).resultLine())
                .isEqualTo("result sha256=" + expected);
    }
}
