package io.ironloop.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/** The memory a bench may use on this machine: the benches size their runs by it and refuse sizes that will not fit. */
public final class MachineMemory {
    private MachineMemory() {
    }

    /** MemAvailable from /proc/meminfo, or the physical memory size where there is none. */
    public static long available() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/meminfo"))) {
            Optional<String> line = lines.filter(l -> l.startsWith("MemAvailable:")).findFirst();
            if (line.isPresent()) {
                return Long.parseLong(line.get().replaceAll("[^0-9]", "")) * 1024;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall back below
        }
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os.getTotalMemorySize();
    }
}
