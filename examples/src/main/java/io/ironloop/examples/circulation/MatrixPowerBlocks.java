package io.ironloop.examples.circulation;

import io.ironloop.examples.blocks.BlockExample;
import io.ironloop.runtime.blocks.BlockLayout;
import io.ironloop.runtime.blocks.Grid2D;
import io.ironloop.runtime.blocks.StepContext;
import java.util.Map;

/**
 * {@link MatrixPower} written by hand on a block loop, without the skeleton: a periodic ring of blocks, each keeping
 * its rows of {@code A} and the block of columns passing through; every step each block multiplies, then sends its
 * columns east. The same numerics and result as {@link MatrixPowerSkeleton}.
 */
public final class MatrixPowerBlocks implements BlockExample<MatrixPowerBlock> {
    private final MatrixPower problem;
    private final Grid2D ring;

    /** The example of {@code problem}. */
    public MatrixPowerBlocks(MatrixPower problem) {
        this.problem = problem;
        this.ring = new Grid2D(problem.parts(), 1, true, false);
    }

    @Override
    public String name() {
        return "circulation";
    }

    @Override
    public String describe() {
        return problem.describe();
    }

    @Override
    public BlockLayout layout() {
        return ring;
    }

    @Override
    public MatrixPowerBlock create(int id) {
        return new MatrixPowerBlock(id, problem);
    }

    @Override
    public long steps() {
        return problem.steps();
    }

    @Override
    public void step(StepContext<MatrixPowerBlock> context) {
        for (MatrixPowerBlock b : context.blocks()) {
            b.multiply(context.iteration());
        }
        context.exchangeHalos();
    }

    @Override
    public Map<String, String> settings() {
        return problem.settings();
    }

    @Override
    public String summary(Sums<MatrixPowerBlock> sums) {
        return "sum of Y " + sums.sum(MatrixPowerBlock::total);
    }

    @Override
    public boolean digestsRows() {
        return true;
    }

    @Override
    public Map<Integer, double[]> resultRows(MatrixPowerBlock block) {
        return Map.of(problem.travellerAt(block.id(), problem.steps()) * problem.block(), block.oldValues());
    }
}
