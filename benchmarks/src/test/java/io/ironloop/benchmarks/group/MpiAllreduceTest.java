package io.ironloop.benchmarks.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The Open MPI reference of {@code bench group}, where Open MPI is installed (skipped, with the reason, elsewhere). */
class MpiAllreduceTest {
    @Test
    void compilesAndTimesAnAllreduce_overTcpAndSharedMemory() throws Exception {
        StringWriter log = new StringWriter();
        Optional<MpiAllreduce> mpi = MpiAllreduce.compile(new PrintWriter(log, true));
        assumeTrue(mpi.isPresent(), log.toString().strip());
        try {
            double tcp = mpi.get().seconds("tcp,self", 2, 1 << 20, 3);
            double shm = mpi.get().seconds("vader,self", 2, 1 << 20, 3);
            assertThat(tcp).isPositive().isLessThan(30);
            assertThat(shm).isPositive().isLessThan(30);
        } finally {
            mpi.get().delete();
        }
    }
}
