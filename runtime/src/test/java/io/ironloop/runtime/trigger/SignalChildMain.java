package io.ironloop.runtime.trigger;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A rank stand-in for the signal tests: installs the triggers for the given signals with an action that
 * writes and fsyncs a marker file, creates the ready file, then waits to be signalled.
 *
 * <p>Arguments: marker path, ready path, signal list (for example {@code TERM,INT}).
 */
public final class SignalChildMain {

    private SignalChildMain() {
    }

    public static void main(String[] args) throws Exception {
        Path marker = Path.of(args[0]);
        Path ready = Path.of(args[1]);
        TriggerOptions options = TriggerOptions.builder().signals(TerminationSignal.parseList(args[2]))
                .signalDeadline(Duration.ofSeconds(10)).build();
        Triggers.start(options, (cause, deadline) -> writeDurably(marker, "saved after " + cause + "\n"), TriggerListener.NONE);
        Files.createFile(ready);
        new CountDownLatch(1).await();
    }

    private static void writeDurably(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        }
    }
}
