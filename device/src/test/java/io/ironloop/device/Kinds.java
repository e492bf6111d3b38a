package io.ironloop.device;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;

/** Which device kinds tests can use here: Java always; OpenCL where a platform answers (else the test is skipped, saying why). */
final class Kinds {
    private static final Optional<String> OPENCL_MISSING = DeviceSet.openClUnavailableReason();

    private Kinds() {
    }

    /** Skips the calling test, with the reason, when {@code kind} is OpenCL and OpenCL is absent. */
    static void assumeAvailable(DeviceKind kind) {
        if (kind == DeviceKind.OPENCL) {
            assumeTrue(OPENCL_MISSING.isEmpty(), () -> "OpenCL test skipped: " + OPENCL_MISSING.orElse("")
                    + " (apt-get install pocl-opencl-icd; .ci/run installs it)");
        }
    }
}
