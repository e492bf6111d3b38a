package io.ironloop.examples.fwi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Collection;

/**
 * Ledger entries as bytes, for exchanging them between ranks (an allgather after each round, and of the
 * restored records after a restart). Little-endian: an {@code int} count, then per entry the shot
 * ({@code int}), its round ({@code long}), its misfit and its gradient ({@code double}s, as their bits).
 * Stateless.
 */
final class LedgerPackets {
    private static final int HEADER = Integer.BYTES;
    private static final int ENTRY_HEAD = Integer.BYTES + Long.BYTES + Double.BYTES;

    private LedgerPackets() {
    }

    /** The entries of {@code shots} in {@code ledger}, whatever their rounds; shots without an entry are left out. */
    static byte[] encode(ShotLedger ledger, Collection<Integer> shots) {
        int n = ledger.gradients().length / ledger.shots();
        long count = shots.stream().filter(s -> ledger.rounds()[s] >= 0).count();
        ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(HEADER + count * (ENTRY_HEAD + (long) n * Double.BYTES)))
                .order(ByteOrder.LITTLE_ENDIAN);
        b.putInt((int) count);
        for (int s : shots) {
            if (ledger.rounds()[s] < 0) {
                continue;
            }
            b.putInt(s).putLong(ledger.rounds()[s]).putDouble(ledger.misfits()[s]);
            b.asDoubleBuffer().put(ledger.gradients(), s * n, n);
            b.position(b.position() + n * Double.BYTES);
        }
        return b.array();
    }

    /**
     * Merges the entries of {@code packet} into {@code ledger} ({@link ShotLedger#mergeFrom} rules: a newer
     * round replaces, the same round must have the same bits).
     *
     * @throws IllegalArgumentException if the packet does not fit the ledger
     */
    static void mergeInto(ShotLedger ledger, byte[] packet) {
        int n = ledger.gradients().length / ledger.shots();
        ByteBuffer b = ByteBuffer.wrap(packet).order(ByteOrder.LITTLE_ENDIAN);
        int count = b.getInt();
        if (count < 0 || packet.length != HEADER + (long) count * (ENTRY_HEAD + (long) n * Double.BYTES)) {
            throw new IllegalArgumentException("a ledger packet of " + packet.length + " bytes with " + count
                    + " entries does not fit a model of " + n + " parameters");
        }
        ShotLedger incoming = new ShotLedger(ledger.shots(), n);
        for (int i = 0; i < count; i++) {
            int shot = b.getInt();
            long round = b.getLong();
            double misfit = b.getDouble();
            double[] gradient = new double[n];
            b.asDoubleBuffer().get(gradient);
            b.position(b.position() + n * Double.BYTES);
            incoming.record(round, new ShotResult(shot, misfit, gradient));
        }
        ledger.mergeFrom(incoming);
    }
}
