package io.ironloop.device;

/**
 * What one device has done so far: bytes copied to it and back to the host, transfers and kernel launches.
 * An immutable snapshot.
 */
public record TransferStats(long bytesToDevice, long bytesToHost, long transfersToDevice, long transfersToHost, long launches) {
    /** Bytes moved in either direction. */
    public long bytes() {
        return bytesToDevice + bytesToHost;
    }
}
