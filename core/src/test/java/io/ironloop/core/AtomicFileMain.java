package io.ironloop.core;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** Child of {@link AtomicFileTest}: replaces {@code FILE} forever with the versions after the one it holds, after writing one. */
public final class AtomicFileMain {
    private AtomicFileMain() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int first = Files.exists(file) ? AtomicFileTest.versionOf(file) + 1 : 1;
        AtomicFileTest.write(file, first);
        System.out.println("ready");
        System.out.flush();
        for (int version = first + 1; ; version++) {
            AtomicFileTest.write(file, version);
        }
    }

    /** Version {@code v}: its number, then {@code 4096 * (1 + v % 64)} bytes of {@code (byte) v}. */
    static byte[] content(int v) {
        byte[] body = new byte[4096 * (1 + v % 64)];
        Arrays.fill(body, (byte) v);
        return ByteBuffer.allocate(8 + body.length).putInt(v).putInt(body.length).put(body).array();
    }
}
