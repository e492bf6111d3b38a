package io.ironloop.core.level;

import java.nio.ByteBuffer;

/**
 * The direct data connections between the ranks of the current group, as the partner level needs them.
 * The runtime binds it to its process group (core does not depend on the group layer); after a shrink it
 * binds the new group. A failed peer surfaces as the group's unchecked failure exception.
 */
public interface PeerLink {
    /** This process's rank in the current group. */
    int rank();

    /** The size of the current group. */
    int size();

    /** The world rank (rank at launch) of {@code rank}. */
    int worldRank(int rank);

    /** The failure domain (host) of {@code rank}, or an empty string when unknown. */
    String host(int rank);

    /**
     * Sends the bytes of {@code data} from position to limit (a direct buffer without a copy where the
     * connection allows); returns once {@code data} may be changed again, without waiting for the receiver.
     */
    void send(int dest, int tag, ByteBuffer data);

    /** The next message from {@code source} with {@code tag}, position 0, limit its length. */
    ByteBuffer receive(int source, int tag);

    /** Gives back a buffer {@link #receive} returned, once nothing refers to it, so a later receive reuses it. */
    void recycle(ByteBuffer buffer);
}
