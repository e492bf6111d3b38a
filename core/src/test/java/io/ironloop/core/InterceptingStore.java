package io.ironloop.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.List;

/**
 * A real store whose writes pass through {@link #beforeWrite} first, so a test can fail them (a full disk)
 * or hold them (a slow disk) while everything else behaves as the real store does.
 */
abstract class InterceptingStore implements Store {
    private final Store delegate;

    InterceptingStore(Store delegate) {
        this.delegate = delegate;
    }

    /** Called before {@code src} is written to file {@code name}; may throw or wait. */
    protected abstract void beforeWrite(String name, ByteBuffer src) throws IOException;

    @Override
    public PendingFile create(String name) throws IOException {
        PendingFile real = delegate.create(name);
        WritableByteChannel intercepted = new WritableByteChannel() {
            @Override
            public int write(ByteBuffer src) throws IOException {
                beforeWrite(name, src);
                return real.channel().write(src);
            }

            @Override
            public boolean isOpen() {
                return real.channel().isOpen();
            }

            @Override
            public void close() throws IOException {
                real.channel().close();
            }
        };
        return new PendingFile() {
            @Override
            public WritableByteChannel channel() {
                return intercepted;
            }

            @Override
            public void publish() throws IOException {
                real.publish();
            }

            @Override
            public void close() {
                real.close();
            }
        };
    }

    @Override
    public String location() {
        return delegate.location();
    }

    @Override
    public List<String> listSeries() throws IOException {
        return delegate.listSeries();
    }

    @Override
    public List<String> listFiles(String series) throws IOException {
        return delegate.listFiles(series);
    }

    @Override
    public long size(String name) throws IOException {
        return delegate.size(name);
    }

    @Override
    public SeekableByteChannel openRead(String name) throws IOException {
        return delegate.openRead(name);
    }

    @Override
    public void delete(String name) throws IOException {
        delegate.delete(name);
    }

    @Override
    public AutoCloseable lock(String series) throws IOException {
        return delegate.lock(series);
    }

    @Override
    public int removeTemporaries(String series) throws IOException {
        return delegate.removeTemporaries(series);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
