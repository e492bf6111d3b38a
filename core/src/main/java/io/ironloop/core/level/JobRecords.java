package io.ironloop.core.level;

import io.ironloop.core.Store;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Small job-wide records kept next to the lines on every remote level, in the series {@value #SERIES} (not a
 * rank's series; it holds no lines): the job's completion record, so that a restart on a fresh machine restoring
 * from a shared directory or an object store sees the job as complete, as one over the original checkpoint folder
 * does. A record is replaced by removing the old one and publishing the new one (each step durable on the level).
 *
 * <p>Threading: stateless; the levels' stores are thread-safe.
 */
public final class JobRecords {
    /** The series holding the records on a remote level. */
    public static final String SERIES = "job";
    private static final Logger LOG = LoggerFactory.getLogger(JobRecords.class);
    private static final int MAX_BYTES = 1 << 20;

    private JobRecords() {
    }

    /**
     * Publishes {@code bytes} as record {@code name} on every level, replacing an older one. A level that fails is
     * logged and skipped (the record stays in the local folder, and the levels that took it).
     *
     * @return the names of the levels that hold it now
     */
    public static List<String> publish(List<RemoteLevel> levels, String name, byte[] bytes) {
        String file = SERIES + "/" + name;
        List<String> done = new java.util.ArrayList<>();
        for (RemoteLevel level : levels) {
            Store store = level.store();
            try {
                if (store.listFiles(SERIES).contains(file)) {
                    store.delete(file);
                }
                try (Store.PendingFile out = store.create(file)) {
                    ByteBuffer b = ByteBuffer.wrap(bytes);
                    while (b.hasRemaining()) {
                        out.channel().write(b);
                    }
                    out.publish();
                }
                done.add(level.name());
            } catch (IOException | RuntimeException e) {
                LOG.warn("the job record {} was not copied to level '{}' ({}): {}; a restart from that level alone will not see it",
                        name, level.name(), store.location(), e.toString());
            }
        }
        return done;
    }

    /**
     * Record {@code name} from the nearest level that holds it, or empty when none does.
     *
     * @throws IOException if a level that lists it cannot read it
     */
    public static Optional<Fetched> fetch(List<RemoteLevel> levels, String name) throws IOException {
        String file = SERIES + "/" + name;
        for (RemoteLevel level : levels) {
            Store store = level.store();
            if (!store.listFiles(SERIES).contains(file)) {
                continue;
            }
            try (SeekableByteChannel in = store.openRead(file)) {
                if (in.size() > MAX_BYTES) {
                    throw new IOException(file + " on level '" + level.name() + "' has " + in.size() + " bytes: not a job record");
                }
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                ByteBuffer b = ByteBuffer.allocate(8192);
                while (in.read(b.clear()) >= 0) {
                    all.write(b.array(), 0, b.position());
                }
                return Optional.of(new Fetched(level.name(), all.toByteArray()));
            }
        }
        return Optional.empty();
    }

    /** Removes record {@code name} from every level that holds it (a fresh start); a level that fails is logged. */
    public static void delete(List<RemoteLevel> levels, String name) {
        String file = SERIES + "/" + name;
        for (RemoteLevel level : levels) {
            try {
                if (level.store().listFiles(SERIES).contains(file)) {
                    level.store().delete(file);
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("the job record {} could not be removed from level '{}': {}", name, level.name(), e.toString());
            }
        }
    }

    /**
     * A record brought back.
     *
     * @param level the level it came from
     * @param bytes its content
     */
    public record Fetched(String level, byte[] bytes) {
    }
}
