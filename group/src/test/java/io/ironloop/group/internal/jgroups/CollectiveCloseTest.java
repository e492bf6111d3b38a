package io.ironloop.group.internal.jgroups;

import io.ironloop.group.launch.FreePorts;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.group.GroupConfig;
import io.ironloop.group.GroupListener;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.RankEnvironment;
import io.ironloop.group.Ranks;
import io.ironloop.group.internal.Session;
import io.ironloop.group.jgroups.LocalJob;
import io.ironloop.group.launch.JobSecret;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.jgroups.protocols.pbcast.GMS;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collective close on the real JGroups stack (several members in this JVM, on loopback). JGroups'
 * leave protocol waits {@code leave_timeout} for an answer to a leave request and {@code
 * view_ack_collection_timeout} for members to acknowledge a view, and FD_SOCK2 waits {@code connect_timeout}
 * for the next member to answer; when every member leaves at once, members used to wait them out (a rank JVM
 * outliving the others by 1-3 s at the end of a job). Here all three are raised far above what closing takes;
 * a wait in a JGroups pool thread shows as closing the channel waiting for it (3 s, JGroups' bound), a wait
 * on the closing thread as the raised timeout, so neither can pass unnoticed.
 */
class CollectiveCloseTest {
    /** JGroups' leave and view-acknowledgement timeouts during the test: any wait on them takes this long. */
    private static final long JGROUPS_WAIT_MILLIS = 12_000;
    /**
     * A close that waited on none of them takes milliseconds (20-90 ms measured); this leaves room for a loaded
     * machine and stays below the 3 s for which closing a channel waits for a busy pool thread.
     */
    private static final long CLOSE_BOUND_MILLIS = 2_500;

    @TempDir
    Path dir;

    @Test
    void close_allMembersLeaveAtOnce_noneWaitsForALeaveAnswerAViewAcknowledgementOrAPing() throws Exception {
        Random random = new Random(20);
        for (int round = 0; round < 3; round++) {
            int n = 4;
            int[] ports = FreePorts.allocate(n);
            Path secretFile = LocalJob.secret(dir, "s" + round, round);
            JobSecret secret = JobSecret.load(secretFile);
            String job = "close" + round;
            long[] delays = new long[n];
            for (int r = 0; r < n; r++) {
                delays[r] = random.nextInt(30); // members reach close() in a random order, a few ms apart
            }
            List<Long> closeMillis = Ranks.run(n, r -> {
                GroupConfig config = GroupConfig.builder().peers(FreePorts.loopbackPeers(ports)).secretFile(secretFile)
                        .joinTimeout(Duration.ofSeconds(20)).build();
                JGroupsTransport transport = JGroupsTransport.create(RankEnvironment.explicit(r, n, job), config, secret);
                ProcessGroup group = new Session(transport, GroupListener.NONE).start();
                GMS gms = transport.channel().getProtocolStack().findProtocol(GMS.class);
                gms.setLeaveTimeout(JGROUPS_WAIT_MILLIS);
                gms.setViewAckCollectionTimeout(JGROUPS_WAIT_MILLIS);
                transport.channel().getProtocolStack().findProtocol(GroupFdSock.class).setValue("connect_timeout", (int) JGROUPS_WAIT_MILLIS);
                group.barrier(); // every member's timeouts are raised before anyone closes
                try {
                    Thread.sleep(delays[r]);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                long start = System.nanoTime();
                group.close();
                long millis = (System.nanoTime() - start) / 1_000_000;
                assertThat(transport.channel().isConnected()).as("rank %d's channel after close", r).isFalse();
                return millis;
            });
            assertThat(closeMillis).as("close() of each rank in round %d, ms (delays %s)", round, java.util.Arrays.toString(delays))
                    .allSatisfy(ms -> assertThat(ms).isLessThan(CLOSE_BOUND_MILLIS));
        }
    }
}
