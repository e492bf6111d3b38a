package io.ironloop.examples.skeleton;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The examples that exist twice, on the loop skeleton and hand-written without it, with the source files of each
 * version's own code (relative to the examples' package directory; the shared model, configuration and rank programs
 * are left out of both). The one list the line-count test and {@code bench skeleton} read.
 */
public enum SkeletonTwin {
    /** The 2-D heat (Jacobi) example: {@link HeatSkeleton} against the block version. */
    HEAT(List.of("skeleton/HeatSkeleton.java"), List.of("blocks/heat/HeatBlocks.java", "blocks/heat/HeatBlock.java")),
    /** The matrix power by data circulation. */
    CIRCULATION(List.of("circulation/MatrixPowerSkeleton.java"), List.of("circulation/MatrixPowerBlocks.java", "circulation/MatrixPowerBlock.java")),
    /** The gas-storage valuation (Swing). */
    SWING(List.of("swing/GasStorageSkeleton.java"), List.of("swing/GasStorageBlocks.java", "swing/GasStorageBlock.java"));

    /** The examples' package directory under a repository root. */
    public static final Path EXAMPLES = Path.of("examples", "src", "main", "java", "io", "ironloop", "examples");

    private final List<String> skeleton;
    private final List<String> handWritten;

    SkeletonTwin(List<String> skeleton, List<String> handWritten) {
        this.skeleton = skeleton;
        this.handWritten = handWritten;
    }

    /** The name in figures: {@code heat}, {@code circulation}, {@code swing}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Logical lines of the skeleton version, sources under {@code examples} (the examples' package directory). */
    public long skeletonLines(Path examples) throws IOException {
        return count(examples, skeleton);
    }

    /** Logical lines of the hand-written version. */
    public long handWrittenLines(Path examples) throws IOException {
        return count(examples, handWritten);
    }

    private static long count(Path examples, List<String> files) throws IOException {
        long n = 0;
        for (String f : files) {
            n += SourceLines.count(examples.resolve(f));
        }
        return n;
    }
}
