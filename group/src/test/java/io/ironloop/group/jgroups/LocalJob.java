package io.ironloop.group.jgroups;

import io.ironloop.group.GroupConfig;
import io.ironloop.group.GroupListener;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ProcessGroups;
import io.ironloop.group.RankEnvironment;
import io.ironloop.group.launch.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;

/** Test helper: a job secret file, a rank joined in this JVM (ports: {@link FreePorts}). */
public final class LocalJob {
    private LocalJob() {
    }

    /** Writes a random owner-only secret file in {@code dir}. */
    public static Path secret(Path dir, String name, long seed) throws IOException {
        Path f = dir.resolve(name);
        byte[] s = new byte[32];
        new Random(seed).nextBytes(s);
        Files.write(f, s);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        return f;
    }

    /** Joins rank {@code rank} of a loopback job in this JVM (blocks until all ranks joined). */
    public static ProcessGroup join(int rank, int[] ports, String job, Path secret, GroupConfig.Builder extra) {
        GroupConfig cfg = extra.peers(FreePorts.loopbackPeers(ports)).secretFile(secret).build();
        return ProcessGroups.join(RankEnvironment.explicit(rank, ports.length, job), cfg, GroupListener.NONE);
    }
}
