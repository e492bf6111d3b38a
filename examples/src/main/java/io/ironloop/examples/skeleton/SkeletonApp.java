package io.ironloop.examples.skeleton;

import io.ironloop.runtime.skeleton.Box;
import io.ironloop.runtime.skeleton.DoubleDomain;
import io.ironloop.runtime.skeleton.Kernel;
import io.ironloop.runtime.skeleton.Partition;
import io.ironloop.runtime.skeleton.RoutingPlan;
import java.util.Map;

/**
 * An example on the loop skeleton as {@link SkeletonRankMain} runs it: the kernel and what the skeleton's builder
 * needs, plus the result each part holds at the end, digested by rows ({@link io.ironloop.examples.RowDigest}) so that
 * the hand-written twin prints the same {@code result sha256=}.
 *
 * @param <D> the domain type
 */
public interface SkeletonApp<D extends DoubleDomain> extends Kernel<D> {
    /** The short name, the prefix of the rank's messages. */
    String name();

    /** The whole domain. */
    Box domain();

    /** The number of parts (a restart may use 1 to this many ranks). */
    int parts();

    /** How the domain is split, per step. */
    Partition partition();

    /** Border exchange (default) or data circulation. */
    default RoutingPlan.Kind communication() {
        return RoutingPlan.Kind.BORDERS;
    }

    /** The settings fingerprinted into the disk lines. */
    Map<String, String> settings();

    /** The result rows of a part after the run, from its read domain and its possessed box at the last step. */
    double[] resultRows(D read, Box possessed);
}
