package io.ironloop.runtime.recovery;

import io.ironloop.core.level.DiskLevel;
import io.ironloop.core.level.PartnerLevel;
import io.ironloop.group.ProcessGroup;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The messages that let a restart read disk lines held in other ranks' stores (node-local {@code FT_FOLDER}s, a host
 * whose disk was replaced): every rank's catalog to every rank, then, for the line agreed on, the files each rank asks
 * the holders for. Both are collective: every rank of {@code g} calls them in the same order, and a rank that fails to
 * list or read its own store still takes part (with an empty catalog, or a file marked as unreadable), so that no rank
 * waits for a message that never comes.
 */
final class PeerDiskLines {
    private static final Logger LOG = LoggerFactory.getLogger(PeerDiskLines.class);
    private static final int TAG_REQUEST = PartnerLevel.TAG_BASE - 0x0100_0000 + 2;
    private static final int TAG_FILE = PartnerLevel.TAG_BASE - 0x0100_0000 + 3;
    private static final byte FILE_OK = 1;
    private static final byte FILE_UNREADABLE = 0;

    private PeerDiskLines() {
    }

    /**
     * Gives every rank every rank's catalog of its store ({@link DiskLevel#peerCatalogs}), when some rank's store holds
     * a line. Collective.
     */
    static void shareCatalogs(ProcessGroup g, DiskLevel disk) {
        byte[] mine;
        try {
            mine = disk.catalog();
        } catch (IOException | RuntimeException e) {
            LOG.warn("world rank {}: the disk lines in {} cannot be listed for the other ranks: {}", g.worldRank(g.rank()),
                    disk.location(), e.getMessage());
            mine = new byte[0];
        }
        disk.forgetPeers();
        // whether any rank holds a line at all (a fresh start: none), with the agreement that never throws: a start
        // makes no exchange, and so no group operation that a rank dying then would fail
        if (g.agree(mine.length == 0 ? 1 : 0) != 0) {
            return;
        }
        byte[][] all = g.allgather(mine);
        try {
            disk.peerCatalogs(all, g.rank());
        } catch (RuntimeException e) {
            LOG.warn("world rank {}: another rank's catalog of disk lines cannot be read, its lines are not used: {}",
                    g.worldRank(g.rank()), e.getMessage());
        }
    }

    /**
     * Fetches from the ranks that hold them the files this rank needs to read {@code ids} at {@code iteration}
     * ({@link DiskLevel#requests}), and serves the other ranks' requests. Collective.
     */
    static void fetch(ProcessGroup g, DiskLevel disk, Collection<Long> ids, long iteration, boolean wholeGroups) {
        int me = g.rank();
        Map<Integer, byte[]> wanted = Map.of();
        try {
            wanted = disk.requests(ids, iteration, wholeGroups);
        } catch (IOException | RuntimeException e) {
            LOG.warn("world rank {}: cannot tell which disk lines of iteration {} to fetch from the other ranks: {}",
                    g.worldRank(me), iteration, e.getMessage());
        }
        byte[] none = DiskLevel.emptyRequest();
        for (int r = 0; r < g.size(); r++) {
            if (r != me) {
                g.send(r, TAG_REQUEST, wanted.getOrDefault(r, none));
            }
        }
        for (int r = 0; r < g.size(); r++) {
            if (r != me) {
                for (Map.Entry<String, Set<String>> file : DiskLevel.requested(g.receive(r, TAG_REQUEST)).entrySet()) {
                    serve(g, disk, r, file.getKey(), file.getValue());
                }
            }
        }
        long bytesFetched = 0;
        int parts = 0;
        for (Map.Entry<Integer, byte[]> e : wanted.entrySet()) {
            int from = e.getKey();
            for (Map.Entry<String, Set<String>> file : DiskLevel.requested(e.getValue()).entrySet()) {
                String name = file.getKey();
                byte[] header = g.receive(from, TAG_FILE);
                ByteBuffer bytes = g.receiveBuffer(from, TAG_FILE);
                String said = new String(header, 1, header.length - 1, StandardCharsets.UTF_8);
                if (header[0] != FILE_OK) {
                    LOG.warn("world rank {}: world rank {} could not send {}: {}", g.worldRank(me), g.worldRank(from), name, said);
                    continue;
                }
                bytesFetched += bytes.remaining();
                try {
                    parts += disk.fetched(name, file.getValue(), bytes) ? 1 : 0; // read back like any line: every chunk's CRC32C checked
                } catch (IOException | RuntimeException x) {
                    LOG.warn("world rank {}: cannot keep {} sent by world rank {}: {}", g.worldRank(me), name, g.worldRank(from), x.getMessage());
                }
            }
        }
        if (!wanted.isEmpty()) {
            LOG.info("world rank {}: fetched the disk line files of iteration {} that {} lacks from world ranks {} ({} bytes; {} of"
                    + " them only the entries it reads)", g.worldRank(me), iteration, disk.location(),
                    wanted.keySet().stream().map(g::worldRank).toList(), bytesFetched, parts);
        }
    }

    /**
     * Sends one requested file (or the part holding {@code entries}): a header (status byte, then the name or why it cannot
     * be read) and its bytes.
     */
    private static void serve(ProcessGroup g, DiskLevel disk, int to, String name, Set<String> entries) {
        ByteBuffer bytes;
        byte[] header;
        try {
            bytes = disk.file(name, entries);
            header = header(FILE_OK, name);
        } catch (IOException | RuntimeException e) {
            bytes = ByteBuffer.allocate(0);
            header = header(FILE_UNREADABLE, e.getMessage() == null ? e.toString() : e.getMessage());
        }
        g.send(to, TAG_FILE, header);
        g.send(to, TAG_FILE, bytes);
    }

    private static byte[] header(byte status, String text) {
        byte[] t = text.getBytes(StandardCharsets.UTF_8);
        byte[] h = new byte[1 + t.length];
        h[0] = status;
        System.arraycopy(t, 0, h, 1, t.length);
        return h;
    }
}
