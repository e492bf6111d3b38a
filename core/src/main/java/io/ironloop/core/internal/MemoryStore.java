package io.ironloop.core.internal;

import io.ironloop.core.Store;
import io.ironloop.core.StoreLockedException;
import io.ironloop.format.internal.StoreNames;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/** A store in this JVM's heap. Publishing is atomic (a map insert); nothing survives the process. */
public final class MemoryStore implements Store {
    private final ConcurrentSkipListMap<String, byte[]> files = new ConcurrentSkipListMap<>();
    private final Set<String> locked = ConcurrentHashMap.newKeySet();

    @Override
    public String location() {
        return "memory";
    }

    @Override
    public List<String> listSeries() {
        return files.keySet().stream().map(StoreNames::series).distinct().toList();
    }

    @Override
    public List<String> listFiles(String series) {
        String prefix = StoreNames.checkSeries(series) + "/";
        return files.subMap(prefix, prefix + Character.MAX_VALUE).keySet().stream().toList();
    }

    @Override
    public long size(String name) throws IOException {
        return content(name).length;
    }

    @Override
    public SeekableByteChannel openRead(String name) throws IOException {
        return ByteArrayChannel.forReading(content(name));
    }

    @Override
    public PendingFile create(String name) throws IOException {
        StoreNames.check(name);
        if (files.containsKey(name)) {
            throw new FileAlreadyExistsException(name, null, "a published file is never overwritten");
        }
        ByteArrayChannel ch = ByteArrayChannel.forWriting();
        return new PendingFile() {
            @Override
            public WritableByteChannel channel() {
                return ch;
            }

            @Override
            public void publish() throws IOException {
                if (files.putIfAbsent(name, ch.toByteArray()) != null) {
                    throw new FileAlreadyExistsException(name);
                }
            }

            @Override
            public void close() {
                ch.close();
            }
        };
    }

    @Override
    public void delete(String name) {
        files.remove(StoreNames.check(name));
    }

    @Override
    public AutoCloseable lock(String series) {
        if (!locked.add(StoreNames.checkSeries(series))) {
            throw new StoreLockedException("series " + series + " of the in-memory store is being written by another engine");
        }
        return () -> locked.remove(series);
    }

    @Override
    public int removeTemporaries(String series) {
        return 0;
    }

    @Override
    public void close() {
    }

    private byte[] content(String name) throws NoSuchFileException {
        byte[] b = files.get(StoreNames.check(name));
        if (b == null) {
            throw new NoSuchFileException(name);
        }
        return b;
    }
}
