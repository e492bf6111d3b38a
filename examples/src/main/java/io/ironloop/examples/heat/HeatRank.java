package io.ironloop.examples.heat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;

import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ReduceOp;
import io.ironloop.runtime.Ironloop;

/**
 * One rank of a distributed 1-D heat diffusion with per-rank state: each rank owns a subdomain of the rod
 * (with one ghost cell on each side, exchanged with its neighbours every step) and counts the cell updates
 * it made. Both are per-rank state — registered with {@code registerLocal}, recovered with
 * {@code canRecoverLocal()} / {@code readLocal()}, saved with every global line by {@code saveGlobal()} —
 * the pattern "per-rank subdomains" of {@code docs/patterns.md}. Run it with {@code ironloop run -n N
 * [--restarts K] [--params FILE] -- io.ironloop.examples.heat.HeatRank [CELLS_PER_RANK [STEPS [PAUSE_MS]]]}.
 *
 * <p>Rank 0 prints {@code heat updates=<total> sha256=<hex of the final rod>} on standard output — the
 * same line as {@link #simulate} for the same sizes, however often ranks were killed and the job restarted:
 * the total is ranks × cells × steps only if no rank restored state from another iteration than the others.
 */
public final class HeatRank {
    private static final double ALPHA = 0.25;

    private HeatRank() {
    }

    /**
     * Entry point of one rank.
     *
     * @param args optional cells per rank, steps and pause per step (ms)
     */
    public static void main(String[] args) throws InterruptedException {
        int cells = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        long pause = args.length > 2 ? Long.parseLong(args[2]) : 0;
        try (Ironloop ft = Ironloop.start(Map.of("app", "heat-rank", "cells", cells, "steps", steps))) {
            if (ft.completion().isPresent()) {
                if (ft.rank() == 0) {
                    System.out.println(ft.completion().get().result());
                }
                return;
            }
            double[] rod = new double[cells + 2]; // [0] and [cells + 1] are ghost cells
            long[] updates = new long[1];
            initialise(rod, ft.rank() * cells);
            ft.registerLocal("rod", rod);
            ft.registerLocal("updates", updates);
            if (ft.canRecoverGlobal()) {
                ft.readGlobal();
            }
            if (ft.canRecoverLocal()) { // collective: true on every rank or on none
                ft.readLocal();
            }
            ft.startHeartbeatMonitoring();
            ft.plan(steps);
            double[] next = new double[cells + 2];
            for (long step = ft.iteration(); step < steps; step++) {
                exchangeHalos(ft.group(), rod);
                step(rod, next, cells);
                updates[0] += cells;
                Thread.sleep(pause);
                ft.saveGlobal(); // also saves every rank's rod and counter with the global line
            }
            String result = result(ft.group().allreduce(updates[0], ReduceOp.SUM), ft.group().allgather(interior(rod, cells)));
            ft.complete(result);
            if (ft.rank() == 0) {
                System.out.println(result);
            }
        }
    }

    /**
     * The failure-free result on one process: the same arithmetic on the whole rod.
     *
     * @return the line rank 0 prints for {@code ranks} ranks of {@code cells} cells after {@code steps} steps
     */
    public static String simulate(int ranks, int cells, int steps) {
        int n = ranks * cells;
        double[] rod = new double[n + 2];
        double[] next = new double[n + 2];
        initialise(rod, 0);
        for (int s = 0; s < steps; s++) {
            rod[0] = rod[1];
            rod[n + 1] = rod[n];
            step(rod, next, n);
        }
        byte[][] parts = new byte[ranks][];
        for (int r = 0; r < ranks; r++) {
            double[] sub = new double[cells + 2];
            System.arraycopy(rod, r * cells, sub, 0, cells + 2);
            parts[r] = interior(sub, cells);
        }
        return result((long) n * steps, parts);
    }

    /** A deterministic, uneven initial temperature of the cells of {@code rod}, the first being global cell {@code first}. */
    private static void initialise(double[] rod, int first) {
        for (int i = 1; i <= rod.length - 2; i++) {
            long g = first + i - 1;
            rod[i] = (g * 7919 % 1000) / 10.0;
        }
    }

    /** Sends this rank's edge cells to its neighbours and fills the ghost cells from theirs (insulated rod ends). */
    private static void exchangeHalos(ProcessGroup g, double[] rod) {
        int r = g.rank();
        int n = rod.length - 2;
        if (r + 1 < g.size()) {
            g.send(r + 1, 0, new double[] {rod[n]});
        }
        if (r > 0) {
            g.send(r - 1, 1, new double[] {rod[1]});
        }
        rod[0] = r > 0 ? g.receiveDoubles(r - 1, 0)[0] : rod[1];
        rod[n + 1] = r + 1 < g.size() ? g.receiveDoubles(r + 1, 1)[0] : rod[n];
    }

    private static void step(double[] rod, double[] next, int cells) {
        for (int i = 1; i <= cells; i++) {
            next[i] = rod[i] + ALPHA * (rod[i - 1] - 2 * rod[i] + rod[i + 1]);
        }
        System.arraycopy(next, 1, rod, 1, cells);
    }

    private static byte[] interior(double[] rod, int cells) {
        ByteBuffer b = ByteBuffer.allocate(cells * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 1; i <= cells; i++) {
            b.putDouble(rod[i]);
        }
        return b.array();
    }

    private static String result(long updates, byte[][] parts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (byte[] p : parts) {
                sha.update(p);
            }
            return String.format(Locale.ROOT, "heat updates=%d sha256=%s", updates, HexFormat.of().formatHex(sha.digest()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
