package io.ironloop.examples.skeleton;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every example on the skeleton is no longer than its hand-written twin (logical lines, the paper's measure). */
class SkeletonTwinTest {
    private static final Path EXAMPLES = Path.of("src/main/java/io/ironloop/examples");

    @ParameterizedTest
    @EnumSource(SkeletonTwin.class)
    void skeletonVersion_noMoreLinesThanTheHandWrittenOne(SkeletonTwin twin) throws IOException {
        assertThat(Files.isDirectory(EXAMPLES)).as(EXAMPLES.toAbsolutePath().toString()).isTrue();
        long skeleton = twin.skeletonLines(EXAMPLES);
        long handWritten = twin.handWrittenLines(EXAMPLES);
        assertThat(skeleton).as("%s: %d lines on the skeleton, %d by hand", twin.key(), skeleton, handWritten).isPositive()
                .isLessThanOrEqualTo(handWritten);
    }
}
