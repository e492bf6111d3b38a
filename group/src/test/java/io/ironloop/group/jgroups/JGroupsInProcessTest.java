package io.ironloop.group.jgroups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.ironloop.group.GroupConfig;
import io.ironloop.group.TestData;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.Ranks;
import io.ironloop.group.ReduceOp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several JGroups members in this JVM on loopback: the real stack, without process start-up costs. */
class JGroupsInProcessTest {
    @TempDir
    Path dir;

    @Test
    void collectives_threeMembersOverJGroups_bitIdentical() throws Exception {
        int[] ports = LocalJob.freePorts(3);
        Path secret = LocalJob.secret(dir, "s", 1);
        int n = 300_000; // larger than a reduction chunk
        List<String> res = Ranks.run(3, r -> {
            try (ProcessGroup g = LocalJob.join(r, ports, "inproc", secret, GroupConfig.builder().joinTimeout(Duration.ofSeconds(20)))) {
                double[] sum = g.allreduce(TestData.values(r, n), ReduceOp.SUM);
                assertArrayEquals(TestData.expectedSum(3, n), sum, 0.0);
                g.barrier();
                byte[] b = g.sendrecv(new byte[] {(byte) r}, (r + 1) % 3, (r + 2) % 3, 9);
                assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                        .as("thread names are text (they appear in every log line)")
                        .allMatch(name -> name.chars().noneMatch(Character::isISOControl));
                return g.rank() + ":" + b[0] + ":" + g.agree(10 - r);
            }
        });
        assertThat(res).containsExactly("0:2:8", "1:0:8", "2:1:8");
    }

    /**
     * Ranks 1 and 2 start well before rank 0 and discover only each other. Without FormationGate one of
     * them founded the cluster (and on a loaded machine the job could split for good); now they wait for
     * rank 0, which founds it and leads.
     */
    @Test
    void formation_rankZeroStartsLast_othersWaitAndRankZeroLeads() throws Exception {
        int[] ports = LocalJob.freePorts(3);
        Path secret = LocalJob.secret(dir, "s", 2);
        List<String> res = Ranks.run(3, r -> {
            if (r == 0) {
                try {
                    Thread.sleep(2500); // longer than a discovery round: the others have long given up finding anyone
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            try (ProcessGroup g = LocalJob.join(r, ports, "late0", secret, GroupConfig.builder().joinTimeout(Duration.ofSeconds(30)))) {
                return g.rank() + ":" + g.leader() + ":" + g.allreduce(1.0, ReduceOp.SUM);
            }
        });
        assertThat(res).containsExactly("0:0:3.0", "1:0:3.0", "2:0:3.0");
    }
}
