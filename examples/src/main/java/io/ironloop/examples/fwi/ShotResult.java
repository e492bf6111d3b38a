package io.ironloop.examples.fwi;

/**
 * What one shot contributes to an iteration: its misfit and its gradient.
 *
 * <p>The gradient array is owned by the result and not copied; equality is by reference, as for any
 * record holding an array.
 *
 * @param shot     the shot (task) index, {@code 0 <= shot < shots}
 * @param misfit   {@code 0.5 * sum (modelled - observed)^2} over the shot's samples and receivers
 * @param gradient derivative of {@code misfit} with respect to each model velocity, physical grid
 *                 order ({@code iz * nx + ix})
 */
public record ShotResult(int shot, double misfit, double[] gradient) {

    /** Checks the arguments. */
    public ShotResult {
        if (shot < 0) {
            throw new IllegalArgumentException("shot must not be negative: " + shot);
        }
        java.util.Objects.requireNonNull(gradient, "gradient");
    }
}
