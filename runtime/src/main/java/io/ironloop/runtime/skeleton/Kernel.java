package io.ironloop.runtime.skeleton;

/**
 * The application's part of a {@link Skeleton} (FTG's {@code ftg_Calc_Kernel}): the step iterator, the initial
 * values, the calculation of one step of one part, and when to communicate. Every method must be a function of
 * its arguments (and of the settings), the same on every rank: a restart re-executes {@link #begin}, {@link
 * #next} and {@link #init} (the light operations) and skips the calculations up to the recovery line.
 *
 * @param <D> the domain type: {@link Domain1D}, {@link Domain2D} or {@link Domain3D} for one to three dimensions,
 *     {@link DoubleDomain} for more
 */
public interface Kernel<D extends DoubleDomain> {
    /** The first step. */
    long begin();

    /** The value after the last step: the loop runs while the step differs from it. */
    long end();

    /** The step after {@code step}. */
    long next(long step);

    /**
     * Sets the initial values of part {@code part}: both domains cover the part's needed box at the first step.
     * Light: it runs again on every restart, before the checkpoint is loaded.
     */
    void init(int part, D read, D write);

    /**
     * Computes the {@code possessed} box of {@code write} at {@code step} from {@code read}, which holds the part's
     * needed box (its shadow region filled by the previous communication). Must write every element of {@code
     * possessed}: {@code write}'s other values are the previous step's, or zero after a resize.
     */
    void calculate(D read, D write, Box possessed, long step);

    /**
     * Whether the routing plan runs after {@code step}'s calculation (FTG's {@code ftgu_do_execute_routing_plan}).
     * Must be the same on every rank; a difference stops the skeleton with an {@link IllegalStateException}
     * on every rank. Default: always.
     */
    default boolean communicate(long step) {
        return true;
    }
}
