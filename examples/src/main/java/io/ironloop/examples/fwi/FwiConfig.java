package io.ironloop.examples.fwi;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The settings of one full-waveform inversion: grid, acquisition, models, optimiser and memory.
 *
 * <p>Two presets are provided: {@link #test()} (a full run in well under ten seconds on one core) and
 * {@link #demo()} (16 shots, 6 iterations, a fraction of a second per shot). Any field can be changed
 * through {@link #toBuilder()}. Lengths are in metres, velocities in m/s, times in seconds; grid
 * positions ({@code sourceDepth}, {@code receiverDepth}) are in cells of the physical grid.
 *
 * <p>Two runs reach bit-identical results exactly when their configurations are equal; the
 * {@link #settings()} map is what a runtime records as the application's settings (DeLIA's
 * save-settings) to refuse recovering a checkpoint written with different ones.
 *
 * @param nx                    physical grid cells along x (horizontal)
 * @param nz                    physical grid cells along z (depth)
 * @param spacing               grid spacing, m
 * @param sponge                width of the absorbing (damping) layer around the grid, cells
 * @param recordTime            length of each seismogram, s
 * @param peakFrequency         peak frequency of the Ricker source wavelet, Hz
 * @param shots                 number of shots (tasks of every iteration), spread evenly along x
 * @param receivers             number of receivers, spread evenly along x
 * @param sourceDepth           depth of the sources, cells
 * @param receiverDepth         depth of the receiver line, cells
 * @param velocityTop           background velocity at the top of the grid, m/s
 * @param velocityBottom        background velocity at the bottom of the grid, m/s
 * @param anomaly               amplitude of the two Gaussian anomalies of the true model (one fast,
 *                              one slow), m/s
 * @param minVelocity           lower bound of the model during the inversion, m/s
 * @param maxVelocity           upper bound of the model; also fixes the time step by the CFL rule
 * @param courant               Courant number {@code maxVelocity * dt / spacing}, at most 0.6
 * @param maxIterations         accepted L-BFGS iterations of a complete run
 * @param lbfgsMemory           number of (s, y) pairs kept by L-BFGS
 * @param initialStep           largest model change of the first (steepest-descent) trial, m/s
 * @param wavefieldBudgetBytes  memory one shot may use for the stored forward wavefield; beyond
 *                              it the wavefield is checkpointed and recomputed segment by segment
 */
public record FwiConfig(int nx, int nz, double spacing, int sponge, double recordTime,
        double peakFrequency, int shots, int receivers, int sourceDepth, int receiverDepth,
        double velocityTop, double velocityBottom, double anomaly, double minVelocity,
        double maxVelocity, double courant, int maxIterations, int lbfgsMemory, double initialStep,
        long wavefieldBudgetBytes) {

    /** Validates the cross-field rules; see {@link Builder#build()}. */
    public FwiConfig {
        new Builder(nx, nz, spacing, sponge, recordTime, peakFrequency, shots, receivers,
                sourceDepth, receiverDepth, velocityTop, velocityBottom, anomaly, minVelocity,
                maxVelocity, courant, maxIterations, lbfgsMemory, initialStep,
                wavefieldBudgetBytes).check();
    }

    /** The test size: 48 x 32 cells, 6 shots, 5 iterations; a full run takes about a second. */
    public static FwiConfig test() {
        return new FwiConfig(48, 32, 10.0, 12, 0.6, 10.0, 6, 24, 2, 2, 1800.0, 2400.0, 150.0,
                1500.0, 3000.0, 0.5, 5, 5, 40.0, 64L << 20);
    }

    /** The demo size: 160 x 80 cells, 16 shots, 6 iterations. */
    public static FwiConfig demo() {
        return new FwiConfig(160, 80, 10.0, 20, 1.0, 10.0, 16, 80, 2, 2, 1800.0, 2600.0, 150.0,
                1500.0, 3000.0, 0.5, 6, 5, 5.0, 64L << 20);
    }

    /** Returns a builder that starts from this configuration. */
    public Builder toBuilder() {
        return new Builder(nx, nz, spacing, sponge, recordTime, peakFrequency, shots, receivers,
                sourceDepth, receiverDepth, velocityTop, velocityBottom, anomaly, minVelocity,
                maxVelocity, courant, maxIterations, lbfgsMemory, initialStep, wavefieldBudgetBytes);
    }

    /** Number of model parameters (velocities of the physical grid cells). */
    public int modelSize() {
        return nx * nz;
    }

    /**
     * The settings as ordered name/value strings, for a runtime's settings record. The wavefield
     * budget is left out: it changes memory use and speed, never a result bit.
     */
    public Map<String, String> settings() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("nx", Integer.toString(nx));
        m.put("nz", Integer.toString(nz));
        m.put("spacing", Double.toString(spacing));
        m.put("sponge", Integer.toString(sponge));
        m.put("recordTime", Double.toString(recordTime));
        m.put("peakFrequency", Double.toString(peakFrequency));
        m.put("shots", Integer.toString(shots));
        m.put("receivers", Integer.toString(receivers));
        m.put("sourceDepth", Integer.toString(sourceDepth));
        m.put("receiverDepth", Integer.toString(receiverDepth));
        m.put("velocityTop", Double.toString(velocityTop));
        m.put("velocityBottom", Double.toString(velocityBottom));
        m.put("anomaly", Double.toString(anomaly));
        m.put("minVelocity", Double.toString(minVelocity));
        m.put("maxVelocity", Double.toString(maxVelocity));
        m.put("courant", Double.toString(courant));
        m.put("maxIterations", Integer.toString(maxIterations));
        m.put("lbfgsMemory", Integer.toString(lbfgsMemory));
        m.put("initialStep", Double.toString(initialStep));
        return m;
    }

    /**
     * Builds a {@link FwiConfig}. Each setter rejects a bad value with
     * {@link IllegalArgumentException} and a second call for the same field with
     * {@link IllegalStateException}; {@link #build()} checks the rules that involve several fields.
     * Not thread-safe.
     */
    public static final class Builder {
        private final Set<String> set = new HashSet<>();
        private int nx, nz, sponge, shots, receivers, sourceDepth, receiverDepth;
        private int maxIterations, lbfgsMemory;
        private double spacing, recordTime, peakFrequency, velocityTop, velocityBottom, anomaly;
        private double minVelocity, maxVelocity, courant, initialStep;
        private long wavefieldBudgetBytes;

        private Builder(int nx, int nz, double spacing, int sponge, double recordTime,
                double peakFrequency, int shots, int receivers, int sourceDepth, int receiverDepth,
                double velocityTop, double velocityBottom, double anomaly, double minVelocity,
                double maxVelocity, double courant, int maxIterations, int lbfgsMemory,
                double initialStep, long wavefieldBudgetBytes) {
            this.nx = nx; this.nz = nz; this.spacing = spacing; this.sponge = sponge;
            this.recordTime = recordTime; this.peakFrequency = peakFrequency; this.shots = shots;
            this.receivers = receivers; this.sourceDepth = sourceDepth;
            this.receiverDepth = receiverDepth; this.velocityTop = velocityTop;
            this.velocityBottom = velocityBottom; this.anomaly = anomaly;
            this.minVelocity = minVelocity; this.maxVelocity = maxVelocity; this.courant = courant;
            this.maxIterations = maxIterations; this.lbfgsMemory = lbfgsMemory;
            this.initialStep = initialStep; this.wavefieldBudgetBytes = wavefieldBudgetBytes;
        }

        /** Physical grid size, at least 8 x 8 cells. */
        public Builder grid(int nx, int nz) {
            once("grid");
            if (nx < 8 || nz < 8) {
                throw new IllegalArgumentException("nx and nz must be at least 8: " + nx + ", " + nz);
            }
            this.nx = nx; this.nz = nz;
            return this;
        }

        /** Number of shots (tasks per iteration), at least 1. */
        public Builder shots(int shots) {
            once("shots");
            positive("shots", shots);
            this.shots = shots;
            return this;
        }

        /** Number of receivers, at least 1. */
        public Builder receivers(int receivers) {
            once("receivers");
            positive("receivers", receivers);
            this.receivers = receivers;
            return this;
        }

        /** Accepted iterations of a complete run, at least 1. */
        public Builder maxIterations(int maxIterations) {
            once("maxIterations");
            positive("maxIterations", maxIterations);
            this.maxIterations = maxIterations;
            return this;
        }

        /** Number of L-BFGS (s, y) pairs, at least 1. */
        public Builder lbfgsMemory(int lbfgsMemory) {
            once("lbfgsMemory");
            positive("lbfgsMemory", lbfgsMemory);
            this.lbfgsMemory = lbfgsMemory;
            return this;
        }

        /** Length of each seismogram in seconds, positive. */
        public Builder recordTime(double seconds) {
            once("recordTime");
            if (!(seconds > 0) || Double.isInfinite(seconds)) {
                throw new IllegalArgumentException("recordTime must be positive and finite: " + seconds);
            }
            this.recordTime = seconds;
            return this;
        }

        /** Memory budget in bytes for one shot's stored forward wavefield, positive. */
        public Builder wavefieldBudgetBytes(long bytes) {
            once("wavefieldBudgetBytes");
            if (bytes <= 0) {
                throw new IllegalArgumentException("wavefieldBudgetBytes must be positive: " + bytes);
            }
            this.wavefieldBudgetBytes = bytes;
            return this;
        }

        /**
         * Builds the configuration; changes nothing.
         *
         * @throws IllegalArgumentException if the fields contradict each other (for example a
         *     depth outside the grid, a velocity outside the bounds, an unstable Courant number)
         */
        public FwiConfig build() {
            return new FwiConfig(nx, nz, spacing, sponge, recordTime, peakFrequency, shots,
                    receivers, sourceDepth, receiverDepth, velocityTop, velocityBottom, anomaly,
                    minVelocity, maxVelocity, courant, maxIterations, lbfgsMemory, initialStep,
                    wavefieldBudgetBytes);
        }

        private void check() {
            require(nx >= 8 && nz >= 8, "nx and nz must be at least 8");
            positive("sponge", sponge);
            positive("shots", shots);
            positive("receivers", receivers);
            positive("maxIterations", maxIterations);
            positive("lbfgsMemory", lbfgsMemory);
            require(shots <= nx && receivers <= nx, "shots and receivers must fit on distinct cells of the x axis");
            require(sourceDepth >= 0 && sourceDepth < nz, "sourceDepth must lie inside the grid");
            require(receiverDepth >= 0 && receiverDepth < nz, "receiverDepth must lie inside the grid");
            require(spacing > 0 && recordTime > 0 && peakFrequency > 0 && initialStep > 0,
                    "spacing, recordTime, peakFrequency and initialStep must be positive");
            require(Double.isFinite(spacing + recordTime + peakFrequency + initialStep + anomaly),
                    "lengths, times, frequencies and steps must be finite");
            require(0 < minVelocity && minVelocity < maxVelocity && Double.isFinite(maxVelocity),
                    "need 0 < minVelocity < maxVelocity < infinity");
            double slowest = Math.min(velocityTop, velocityBottom) - Math.abs(anomaly);
            double fastest = Math.max(velocityTop, velocityBottom) + Math.abs(anomaly);
            require(slowest >= minVelocity && fastest <= maxVelocity,
                    "the true model must lie within [minVelocity, maxVelocity]");
            require(courant > 0 && courant <= 0.6, "courant must lie in (0, 0.6] for the 4th-order scheme");
            require(wavefieldBudgetBytes > 0, "wavefieldBudgetBytes must be positive");
        }

        private void once(String field) {
            if (!set.add(field)) {
                throw new IllegalStateException(field + " was already set on this builder");
            }
        }

        private static void positive(String name, long value) {
            if (value <= 0) {
                throw new IllegalArgumentException(name + " must be positive: " + value);
            }
        }

        private static void require(boolean ok, String message) {
            if (!ok) {
                throw new IllegalArgumentException(message);
            }
        }
    }
}
