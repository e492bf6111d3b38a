package io.ironloop.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.ConfigurationException;
import io.ironloop.DirectMemory;
import io.ironloop.format.Scope;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The staging copies: allocated by the first checkpoint, checked against the direct-memory limit at registration. */
class StagingTest {
    private static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void registration_allocatesNoStaging_theFirstCheckpointDoes() {
        byte[] state = new byte[64 * MIB];
        Arrays.fill(state, (byte) 7);
        try (CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().build(), Store.inMemory())) {
            long before = DirectMemory.used();
            engine.protect("state", Scope.LOCAL, state);
            long afterRegistration = DirectMemory.used();
            engine.checkpoint(1);
            engine.awaitDurable();
            long afterCheckpoint = DirectMemory.used(); // the engine is open: its staging copy is alive

            // JVM-wide figures: allocating can run a GC that frees earlier tests' buffers, so only bounds are asserted
            assertThat(afterRegistration - before).as("direct bytes allocated by registering 64 MiB").isLessThan(MIB);
            assertThat(afterCheckpoint).as("direct bytes in use with the staging copy allocated").isGreaterThanOrEqualTo(64L * MIB);
        }
    }

    @Test
    void registration_beyondTheDirectMemoryLimit_isRefusedWithTheFigures() {
        long limit = DirectMemory.limit();
        byte[] state = new byte[64 * MIB]; // registered again and again under new names: nothing is allocated
        int maxInFlight = 4;
        long perRegistration = 64L * MIB * maxInFlight;
        try (CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().maxInFlight(maxInFlight).build(), Store.inMemory())) {
            long fitting = (limit - DirectMemory.reserved()) / perRegistration;
            for (int i = 0; i < fitting; i++) {
                engine.protect("part-" + i, Scope.LOCAL, state);
            }
            long reserved = DirectMemory.reserved();
            assertThatThrownBy(() -> engine.protect("one-too-many", Scope.LOCAL, state))
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("'one-too-many'")
                    .hasMessageContaining("needs " + perRegistration + " bytes of direct memory, but " + reserved + " bytes are reserved")
                    .hasMessageContaining("direct-memory limit is " + limit + " bytes")
                    .hasMessageContaining("MaxDirectMemorySize");
        }
    }

    @Test
    void registration_whileAnotherEngineHoldsTheDirectMemory_isRefused_andFitsOnceThatEngineIsClosed() {
        byte[] state = new byte[64 * MIB];
        int maxInFlight = 4;
        long perRegistration = 64L * MIB * maxInFlight;
        EngineConfig config = EngineConfig.builder().maxInFlight(maxInFlight).build();
        try (CheckpointEngine second = CheckpointEngine.open(config, Store.inMemory())) {
            try (CheckpointEngine first = CheckpointEngine.open(config, Store.inMemory())) {
                long fitting = (DirectMemory.limit() - DirectMemory.reserved()) / perRegistration;
                for (int i = 0; i < fitting; i++) {
                    first.protect("part-" + i, Scope.LOCAL, state);
                }
                assertThatThrownBy(() -> second.protect("state", Scope.LOCAL, state))
                        .as("the first engine's staging counts against the second's")
                        .isInstanceOf(ConfigurationException.class)
                        .hasMessageContaining("'state'")
                        .hasMessageContaining(DirectMemory.reserved() + " bytes are reserved already in this JVM");
                assertThat(second.protectedNames()).isEmpty();
                first.unprotect("part-0");
                second.protect("state", Scope.LOCAL, state); // what the first gave back fits
                second.unprotect("state");
            }
            second.protect("state", Scope.LOCAL, state);
            assertThat(second.protectedNames()).containsExactly("state");
        }
    }
}
