package io.ironloop.examples.fwi;

import java.util.Arrays;
import java.util.Objects;

/**
 * The per-shot results of one process: which shots it completed in which round, with each shot's
 * misfit and gradient kept separately. This is the FWI's local state (DeLIA's {@code t_p},
 * {@code f^s_j}, {@code g^s_j}).
 *
 * <p>Keeping every shot's contribution apart, instead of a running partial sum, is what makes the
 * result independent of the schedule: {@link #sumInTaskOrder} adds the contributions in shot order,
 * so the sum has the same bits whichever process computed which shot, in whatever order, before or
 * after a restart.
 *
 * <p>State, as three arrays that a runtime may save and overwrite in place: {@link #rounds()} (per
 * shot, the round its entry belongs to, or -1), {@link #misfits()} and {@link #gradients()} (shot
 * {@code s} occupies {@code [s*n, (s+1)*n)}). An entry is written before its round tag, so a copy
 * taken between two {@link #record} calls is always consistent. Entries of an older round are
 * ignored by the queries for a newer one; a restored ledger from a previous round therefore needs no
 * clearing.
 *
 * <p>Not thread-safe.
 */
public final class ShotLedger {
    private final int modelSize;
    private final long[] rounds;
    private final double[] misfits;
    private final double[] gradients;

    /** Creates an empty ledger for {@code shots} shots of {@code modelSize} parameters. */
    public ShotLedger(int shots, int modelSize) {
        if (shots <= 0 || modelSize <= 0) {
            throw new IllegalArgumentException("shots and modelSize must be positive: "
                    + shots + ", " + modelSize);
        }
        this.modelSize = modelSize;
        this.rounds = new long[shots];
        this.misfits = new double[shots];
        this.gradients = new double[Math.multiplyExact(shots, modelSize)];
        Arrays.fill(rounds, -1L);
    }

    /** Number of shots. */
    public int shots() {
        return rounds.length;
    }

    /** Per shot, the round of its entry, or -1 for none. State. */
    public long[] rounds() {
        return rounds;
    }

    /** Per shot, the misfit of its entry. State. */
    public double[] misfits() {
        return misfits;
    }

    /** Per shot, the gradient of its entry, shot-major. State. */
    public double[] gradients() {
        return gradients;
    }

    /**
     * Records {@code result} as computed in {@code round}.
     *
     * @throws IllegalArgumentException if the result's shot or gradient length does not fit
     */
    public void record(long round, ShotResult result) {
        Objects.requireNonNull(result, "result");
        int shot = Objects.checkIndex(result.shot(), rounds.length);
        if (round < 0) {
            throw new IllegalArgumentException("round must not be negative: " + round);
        }
        if (result.gradient().length != modelSize) {
            throw new IllegalArgumentException("gradient of shot " + shot + " has "
                    + result.gradient().length + " values, expected " + modelSize);
        }
        System.arraycopy(result.gradient(), 0, gradients, shot * modelSize, modelSize);
        misfits[shot] = result.misfit();
        rounds[shot] = round;
    }

    /** Whether {@code shot} has an entry for {@code round}. */
    public boolean isDone(long round, int shot) {
        return rounds[Objects.checkIndex(shot, rounds.length)] == round;
    }

    /** Number of shots with an entry for {@code round}. */
    public int countDone(long round) {
        int done = 0;
        for (long r : rounds) {
            if (r == round) {
                done++;
            }
        }
        return done;
    }

    /**
     * Copies into this ledger every entry of {@code other} that is newer than this one's (the
     * reading of every rank's record after work stealing, or a gather before the reduction).
     *
     * @throws IllegalArgumentException if the ledgers differ in size
     * @throws IllegalStateException if both hold an entry for the same shot and round whose bits
     *     differ, which a deterministic shot never produces
     */
    public void mergeFrom(ShotLedger other) {
        if (other.rounds.length != rounds.length || other.modelSize != modelSize) {
            throw new IllegalArgumentException("ledgers of different sizes");
        }
        for (int s = 0; s < rounds.length; s++) {
            int at = s * modelSize;
            if (other.rounds[s] > rounds[s]) {
                System.arraycopy(other.gradients, at, gradients, at, modelSize);
                misfits[s] = other.misfits[s];
                rounds[s] = other.rounds[s];
            } else if (other.rounds[s] == rounds[s] && rounds[s] >= 0
                    && (Double.doubleToRawLongBits(other.misfits[s])
                            != Double.doubleToRawLongBits(misfits[s])
                        || !Arrays.equals(other.gradients, at, at + modelSize,
                                gradients, at, at + modelSize))) {
                throw new IllegalStateException("shot " + s + " of round " + rounds[s]
                        + " was computed twice with different results");
            }
        }
    }

    /**
     * Drops every entry of a round after {@code round}: after a restart from a global line older than the
     * local records (the newest global line was lost or damaged), such entries would hide the shots of the
     * round being redone, since {@link #mergeFrom} keeps the newer entry.
     *
     * @return how many entries were dropped
     */
    public int forgetAfter(long round) {
        int dropped = 0;
        for (int s = 0; s < rounds.length; s++) {
            if (rounds[s] > round) {
                rounds[s] = -1L;
                dropped++;
            }
        }
        return dropped;
    }

    /**
     * Sums the contributions of {@code round} in shot order: writes the total gradient into
     * {@code gradient} and returns the total misfit.
     *
     * @throws IllegalStateException if a shot has no entry for {@code round}; names the first
     */
    public double sumInTaskOrder(long round, double[] gradient) {
        if (gradient.length != modelSize) {
            throw new IllegalArgumentException("gradient must have " + modelSize + " values");
        }
        for (int s = 0; s < rounds.length; s++) {
            if (rounds[s] != round) {
                throw new IllegalStateException("shot " + s + " has no result for round " + round
                        + " (its entry is from round " + rounds[s] + "); " + countDone(round)
                        + " of " + rounds.length + " shots are done");
            }
        }
        double misfit = 0.0;
        Arrays.fill(gradient, 0.0);
        for (int s = 0; s < rounds.length; s++) {
            misfit += misfits[s];
            int at = s * modelSize;
            for (int i = 0; i < modelSize; i++) {
                gradient[i] += gradients[at + i];
            }
        }
        return misfit;
    }
}
