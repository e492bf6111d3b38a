package io.ironloop.examples.fwi;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A complete inversion problem: the grid, the acquisition (sources, receivers, wavelet), the true
 * model, the starting model, and the observed data that the true model produces.
 *
 * <p>The true model is a background whose velocity grows linearly with depth, plus one fast and one
 * slow Gaussian anomaly; the starting model is the background alone. Sources are spread evenly along
 * x at {@code sourceDepth}, one per shot; all shots share the receiver line at {@code receiverDepth}.
 * The time step follows the CFL rule from {@code maxVelocity}, so every model the inversion may
 * visit is stable.
 *
 * <p>Everything here is derived deterministically from the {@link FwiConfig} (with
 * {@link StrictMath}), so each process of a parallel run builds the same problem on its own. The
 * observed data of a shot is modelled on first use and cached. Instances are thread-safe.
 */
public final class FwiProblem {
    private final FwiConfig config;
    private final Grid grid;
    private final double dt;
    private final int steps;
    private final double maxDamping;
    private final double[] wavelet;
    private final int[] sourceCells;
    private final int[] receiverCells;
    private final double[] trueModel;
    private final double[] initialModel;
    private final double[] preconditioner;
    private final AtomicReferenceArray<double[]> observed;
    private final AtomicReference<Shot.Workspace> spareWorkspace = new AtomicReference<>();

    /** Builds the problem described by {@code config}; the observed data comes later, lazily. */
    public FwiProblem(FwiConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        int nx = config.nx();
        int nz = config.nz();
        grid = new Grid(nx, nz, config.sponge());
        dt = config.courant() * config.spacing() / config.maxVelocity();
        steps = (int) Math.ceil(config.recordTime() / dt);
        double width = config.sponge() * config.spacing();
        maxDamping = Math.min(1.0 / dt,
                3.0 * config.maxVelocity() * StrictMath.log(1000.0) / (2.0 * width));
        wavelet = new double[steps];
        double f = config.peakFrequency();
        double delay = 1.5 / f;
        for (int n = 0; n < steps; n++) {
            double arg = Math.PI * f * (n * dt - delay);
            arg *= arg;
            wavelet[n] = (1.0 - 2.0 * arg) * StrictMath.exp(-arg);
        }
        sourceCells = new int[config.shots()];
        for (int s = 0; s < sourceCells.length; s++) {
            sourceCells[s] = grid.field(evenly(s, sourceCells.length, nx), config.sourceDepth());
        }
        receiverCells = new int[config.receivers()];
        for (int r = 0; r < receiverCells.length; r++) {
            receiverCells[r] = grid.field(evenly(r, receiverCells.length, nx), config.receiverDepth());
        }
        initialModel = new double[nx * nz];
        trueModel = new double[nx * nz];
        preconditioner = new double[nx * nz];
        int top = Math.max(config.sourceDepth(), config.receiverDepth());
        double taper = Math.max(2.0, nz / 6.0);
        double sigma = nz / 7.0;
        for (int iz = 0; iz < nz; iz++) {
            double background = config.velocityTop()
                    + (config.velocityBottom() - config.velocityTop()) * iz / (nz - 1);
            double ramp = iz <= top ? 0.0 : Math.min(1.0, (iz - top) / taper);
            for (int ix = 0; ix < nx; ix++) {
                int i = iz * nx + ix;
                initialModel[i] = background;
                trueModel[i] = background
                        + config.anomaly() * gaussian(ix - 0.33 * nx, iz - 0.55 * nz, sigma)
                        - config.anomaly() * gaussian(ix - 0.67 * nx, iz - 0.5 * nz, sigma);
                preconditioner[i] = ramp * ramp;
            }
        }
        observed = new AtomicReferenceArray<>(config.shots());
    }

    private static int evenly(int k, int count, int cells) {
        return (int) ((k + 0.5) * cells / count);
    }

    private static double gaussian(double dx, double dz, double sigma) {
        return StrictMath.exp(-(dx * dx + dz * dz) / (2.0 * sigma * sigma));
    }

    /** The configuration this problem was built from. */
    public FwiConfig config() {
        return config;
    }

    /** Number of shots, the tasks of every iteration. */
    public int shots() {
        return config.shots();
    }

    /** Number of model parameters. */
    public int modelSize() {
        return config.modelSize();
    }

    /** Time step, s. */
    public double dt() {
        return dt;
    }

    /** Time steps per shot (samples per seismogram). */
    public int steps() {
        return steps;
    }

    /** A copy of the true model, m/s, physical grid order. */
    public double[] trueModel() {
        return trueModel.clone();
    }

    /** A copy of the starting model of the inversion (the background), m/s. */
    public double[] initialModel() {
        return initialModel.clone();
    }

    /**
     * The seismograms of {@code shot} in the true model, sample-major and receiver-fastest
     * ({@code n * receivers + r}); modelled on the first call for each shot, then cached. The
     * returned array is shared: do not modify it.
     */
    public double[] observed(int shot) {
        Objects.checkIndex(shot, observed.length());
        double[] data = observed.get(shot);
        if (data == null) {
            // Two threads may both model it; they get the same bits and the first one is kept.
            observed.compareAndSet(shot, null, Shot.model(this, trueModel, shot));
            data = observed.get(shot);
        }
        return data;
    }

    Grid grid() {
        return grid;
    }

    double maxDamping() {
        return maxDamping;
    }

    double wavelet(int n) {
        return wavelet[n];
    }

    int sourceCell(int shot) {
        return sourceCells[shot];
    }

    int[] receiverCells() {
        return receiverCells;
    }

    /** Diagonal preconditioner of L-BFGS: 0 at the acquisition depth, rising to 1 below it. */
    double[] preconditioner() {
        return preconditioner;
    }

    Propagator propagator(double[] model) {
        return new Propagator(grid, model, config.spacing(), dt, maxDamping);
    }

    /** A workspace for one shot on the calling thread: the spare one if free, else a new one. */
    Shot.Workspace takeWorkspace() {
        Shot.Workspace w = spareWorkspace.getAndSet(null);
        return w != null ? w : new Shot.Workspace(this);
    }

    /** Offers {@code w} for reuse by the next shot. */
    void returnWorkspace(Shot.Workspace w) {
        spareWorkspace.set(w);
    }
}
