package io.ironloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RegularFiles} on real files of every kind: a named pipe (made with {@code mkfifo}), a character device, a
 * Unix socket, a directory, symbolic links to each and a dangling one. Each open runs under a timeout, since the
 * defect this guards against is a reader blocked forever on a FIFO.
 */
class RegularFilesTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    @TempDir
    Path dir;
    private final List<Path> fifos = new ArrayList<>();
    private final List<ServerSocketChannel> sockets = new ArrayList<>();

    /** Kinds of file the open path may meet. */
    enum Kind { REGULAR, FIFO, DIRECTORY, SOCKET, DEVICE, LINK_TO_REGULAR, LINK_TO_FIFO, DANGLING_LINK }

    /** Releases a reader a failed test left blocked on a FIFO (opening it read-write never blocks on Linux). */
    @AfterEach
    void unblockFifos() throws IOException {
        for (ServerSocketChannel s : sockets) {
            s.close();
        }
        for (Path f : fifos) {
            try (FileChannel ignored = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                // nothing: the open itself wakes a blocked reader
            }
        }
    }

    private Path make(Kind kind, String name) throws Exception {
        Path p = dir.resolve(name);
        switch (kind) {
            case REGULAR -> Files.writeString(p, "content of " + name);
            case FIFO -> mkfifo(p);
            case DIRECTORY -> Files.createDirectory(p);
            case SOCKET -> {
                ServerSocketChannel s = ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX);
                s.bind(UnixDomainSocketAddress.of(p));
                sockets.add(s);
            }
            case DEVICE -> Files.createSymbolicLink(p, Path.of("/dev/null"));
            case LINK_TO_REGULAR -> Files.createSymbolicLink(p, make(Kind.REGULAR, name + ".target"));
            case LINK_TO_FIFO -> Files.createSymbolicLink(p, make(Kind.FIFO, name + ".target"));
            case DANGLING_LINK -> Files.createSymbolicLink(p, dir.resolve(name + ".nowhere"));
        }
        return p;
    }

    private void mkfifo(Path p) throws Exception {
        Process mk;
        try {
            mk = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "mkfifo is not available: " + e.getMessage());
            return;
        }
        assertThat(mk.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(mk.exitValue()).isZero();
        fifos.add(p);
    }

    private static String read(Path p) throws IOException {
        try (FileChannel ch = RegularFiles.openRead(p)) {
            ByteBuffer b = ByteBuffer.allocate((int) ch.size());
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // read the whole small file
            }
            return new String(b.array(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void openRead_namedPipe_refusedWithoutBlocking() throws Exception {
        Path fifo = make(Kind.FIFO, "line-000000000002.commit");

        assertTimeoutPreemptively(TIMEOUT, () -> assertThatThrownBy(() -> RegularFiles.openRead(fifo))
                .isInstanceOf(RegularFiles.NotRegularFileException.class)
                .hasMessageContaining(fifo.toString()).hasMessageContaining("is a named pipe (FIFO), not a regular file"));
        assertTimeoutPreemptively(TIMEOUT, () -> assertThatThrownBy(() -> RegularFiles.size(fifo))
                .isInstanceOf(RegularFiles.NotRegularFileException.class));
    }

    @Test
    void openRead_characterDevice_refused() {
        Path devNull = Path.of("/dev/null");
        assumeTrue(Files.exists(devNull), "no /dev/null");

        assertThatThrownBy(() -> RegularFiles.openRead(devNull)).isInstanceOf(RegularFiles.NotRegularFileException.class)
                .hasMessageContaining("is a character device");
    }

    @Test
    void openRead_symbolicLinkToARegularFile_isNotFollowed() throws Exception {
        Path link = make(Kind.LINK_TO_REGULAR, "link.ilc");

        assertThatThrownBy(() -> RegularFiles.openRead(link)).isInstanceOf(RegularFiles.NotRegularFileException.class)
                .hasMessageContaining("is a symbolic link").hasMessageContaining("symbolic links are not followed");
    }

    @Test
    void openRead_fileBelowALinkedDirectory_opens() throws Exception {
        Path real = Files.createDirectory(dir.resolve("real"));
        Files.writeString(real.resolve("f"), "below a link");
        Path linked = Files.createSymbolicLink(dir.resolve("linked"), real);

        assertThat(read(linked.resolve("f"))).isEqualTo("below a link");
    }

    @Test
    void openRead_missingFile_throwsNoSuchFile() {
        assertThatThrownBy(() -> RegularFiles.openRead(dir.resolve("missing"))).isInstanceOf(NoSuchFileException.class);
    }

    /**
     * Seeded mixes of every kind under random names: each regular file reads back its content, everything else is
     * refused with the kind named, and nothing blocks.
     */
    @Test
    void openRead_seededMixOfEveryKind_opensOnlyRegularFiles() throws Exception {
        Random rnd = new Random(6);
        Kind[] kinds = Kind.values();
        for (int i = 0; i < 40; i++) {
            Kind kind = i < kinds.length ? kinds[i] : kinds[rnd.nextInt(kinds.length)];
            String name = "f" + i + "-" + Long.toHexString(rnd.nextLong());
            Path p = make(kind, name);
            assertTimeoutPreemptively(TIMEOUT, () -> {
                if (kind == Kind.REGULAR) {
                    assertThat(read(p)).isEqualTo("content of " + name);
                } else if (kind == Kind.DANGLING_LINK) {
                    assertThatThrownBy(() -> RegularFiles.openRead(p)).as(kind.name())
                            .isInstanceOf(RegularFiles.NotRegularFileException.class).hasMessageContaining("symbolic link");
                } else {
                    assertThatThrownBy(() -> RegularFiles.openRead(p)).as(kind.name())
                            .isInstanceOf(RegularFiles.NotRegularFileException.class)
                            .hasMessageContaining(p.toString()).hasMessageContaining("not a regular file");
                }
            }, kind + " " + p);
        }
    }
}
