package io.ironloop.core.level;

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

    /** Sends a copy of {@code data}; returns without waiting for the receiver to read it. */
    void send(int dest, int tag, byte[] data);

    /** The next message from {@code source} with {@code tag}. */
    byte[] receive(int source, int tag);
}
