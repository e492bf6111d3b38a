package io.ironloop.group.internal.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.group.GroupListener;
import io.ironloop.group.ProcessFailedException;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ReduceOp;
import io.ironloop.group.TestData;
import io.ironloop.group.internal.Envelope;
import io.ironloop.group.internal.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The large allreduce through memory-mapped files ({@code SharedMemoryAllreduce}) between the in-JVM hub's ranks, with
 * real files in a temporary directory standing in for {@code /dev/shm}: the same bits as the message path, files
 * reused and grown, nothing left behind, a fallback to messages when files cannot be made, and a member that dies
 * between writing its input and publishing its result makes every survivor throw instead of hanging or returning.
 */
class SharedMemoryAllreduceTest {
    private static final int SIZE = 3;
    /** Above the large path's 256 KiB; three segments of uneven length, each more than one combination block. */
    private static final int N = 3 * (1 << 14) + 5;

    @TempDir
    Path shm;
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<InJvmHub> hubs = new ArrayList<>();
    /** The permissions of every shared-memory file whose name went to the others. */
    private final List<String> modes = java.util.Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
        hubs.forEach(InJvmHub::shutdown);
    }

    private List<ProcessGroup> groups(String job, Path directory, AtomicInteger bulkMessages) {
        return groups(job, directory, -1, bulkMessages);
    }

    /** The groups of a new hub whose ranks map files in {@code directory} (null: none), but for rank {@code off}. */
    private List<ProcessGroup> groups(String job, Path directory, int off, AtomicInteger bulkMessages) {
        InJvmHub hub = new InJvmHub(job, SIZE);
        hubs.add(hub);
        if (directory != null) {
            hub.sharedMemory(directory);
        }
        if (off >= 0) {
            hub.sharedMemory(off, null);
        }
        hub.filter((to, e) -> {
            if (e.payload().isDirect()) {
                bulkMessages.incrementAndGet(); // the message path's pieces and results travel in direct buffers
            }
            String text = new String(Envelope.array(e.payload().duplicate()), java.nio.charset.StandardCharsets.UTF_8);
            if (directory != null && text.matches("ironloop-[0-9]+-[0-9a-f]+\\.shm")) { // a file name on its way to the others
                try {
                    modes.add(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(directory.resolve(text))));
                } catch (java.io.IOException ex) {
                    modes.add(ex.toString());
                }
            }
            return true;
        });
        List<ProcessGroup> groups = new ArrayList<>();
        for (int r = 0; r < SIZE; r++) {
            groups.add(new Session(hub.endpoint(r), GroupListener.NONE).start());
        }
        return groups;
    }

    private <T> List<T> onEveryRank(List<ProcessGroup> groups, Function<ProcessGroup, T> work) throws Exception {
        List<Future<T>> futures = new ArrayList<>();
        for (ProcessGroup g : groups) {
            futures.add(pool.submit(() -> work.apply(g)));
        }
        List<T> out = new ArrayList<>();
        for (Future<T> f : futures) {
            out.add(f.get(60, TimeUnit.SECONDS));
        }
        return out;
    }

    /** Three allreduces of doubles (the second reuses the files, the third grows them past 1 MiB), then longs and ints. */
    private static String work(ProcessGroup g) {
        int r = g.rank();
        double[] a = g.allreduce(TestData.values(r, N), ReduceOp.SUM);
        double[] b = g.allreduce(TestData.values(r + 7, N), ReduceOp.MAX);
        double[] c = g.allreduce(TestData.values(r, 3 * N), ReduceOp.SUM);
        long[] l = g.allreduce(new long[N], ReduceOp.SUM);
        Arrays.fill(l, r + 1L);
        l = g.allreduce(l, ReduceOp.PROD);
        int[] i = new int[N];
        Arrays.fill(i, -r);
        i = g.allreduce(i, ReduceOp.MIN);
        return Arrays.hashCode(a) + " " + Arrays.hashCode(b) + " " + Arrays.hashCode(c) + " " + l[N - 1] + " " + l[0] + " " + i[N / 2];
    }

    /** What every rank's {@link #work} must return: the rank-order sums' bits, the products, the minimum. */
    private static String expected(String fromMessagePath) {
        String b = fromMessagePath.split(" ")[1]; // a maximum does not depend on the order
        return Arrays.hashCode(TestData.expectedSum(SIZE, N)) + " " + b + " " + Arrays.hashCode(TestData.expectedSum(SIZE, 3 * N)) + " 6 6 -2";
    }

    @Test
    @Timeout(120)
    void allreduce_throughSharedMemory_sameBitsAsMessagesAndNoFileLeftBehind() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Path strayOfDeadProcess = Files.writeString(shm.resolve("ironloop-" + ended.pid() + "-1f.shm"), "left by a crash");
        Path ofLiveProcess = Files.writeString(shm.resolve("ironloop-" + ProcessHandle.current().pid() + "-2f.shm"), "in use");
        AtomicInteger shmBulk = new AtomicInteger();
        List<String> shared = onEveryRank(groups("shm-bits", shm, shmBulk), SharedMemoryAllreduceTest::work);
        AtomicInteger messageBulk = new AtomicInteger();
        List<String> messages = onEveryRank(groups("msg-bits", null, messageBulk), SharedMemoryAllreduceTest::work);

        assertThat(messages).containsOnly(expected(messages.get(0)));
        assertThat(shared).containsOnly(messages.get(0));
        assertThat(messageBulk.get()).as("the message path moved the data").isPositive();
        assertThat(shmBulk.get()).as("no piece or result went through messages").isZero();
        assertThat(modes).as("files readable by their owner only").hasSize(2 * (SIZE - 1)).containsOnly("rw-------");
        try (Stream<Path> left = Files.list(shm)) {
            assertThat(left).as("files are unlinked once every member mapped them; a dead process's stray file is removed")
                    .containsExactly(ofLiveProcess).doesNotContain(strayOfDeadProcess);
        }
    }

    @Test
    @Timeout(120)
    void allreduce_filesCannotBeCreated_everyMemberUsesMessages() throws Exception {
        AtomicInteger bulk = new AtomicInteger();
        List<String> results = onEveryRank(groups("shm-missing", shm.resolve("missing"), bulk), SharedMemoryAllreduceTest::work);

        assertThat(results).containsOnly(expected(results.get(0)));
        assertThat(bulk.get()).as("the message path moved the data").isPositive();
    }

    @Test
    @Timeout(120)
    void allreduce_oneMemberWithSharedMemoryOff_everyMemberUsesMessages() throws Exception {
        AtomicInteger bulk = new AtomicInteger();
        List<String> results = onEveryRank(groups("shm-mixed", shm, 1, bulk), SharedMemoryAllreduceTest::work); // GROUP_SHARED_MEMORY off at rank 1

        assertThat(results).containsOnly(expected(results.get(0)));
        assertThat(bulk.get()).as("the message path moved the data").isPositive();
        try (Stream<Path> left = Files.list(shm)) {
            assertThat(left).as("the files made for nothing are gone too").isEmpty();
        }
    }

    @Test
    @Timeout(60)
    void allreduce_memberDiesAfterWritingItsInput_everySurvivorThrowsProcessFailed() throws Exception {
        int victim = 1;
        InJvmHub hub = new InJvmHub("shm-death", SIZE);
        hubs.add(hub);
        hub.sharedMemory(shm);
        AtomicInteger signals = new AtomicInteger();
        CountDownLatch written = new CountDownLatch(1);
        hub.filter((to, e) -> {
            if (e.source() != victim || e.kind() != Envelope.Kind.COLLECTIVE || e.payload().hasRemaining()) {
                return true; // everything of the others, and the victim's length check and file exchange
            }
            int k = signals.incrementAndGet(); // empty messages: its "written" signals, then its "combined" ones
            if (k == SIZE - 1) {
                written.countDown();
            }
            return k < SIZE; // it dies after telling the others its input is written, before its result is
        });
        List<ProcessGroup> groups = new ArrayList<>();
        for (int r = 0; r < SIZE; r++) {
            groups.add(new Session(hub.endpoint(r), GroupListener.NONE).start());
        }
        List<Future<String>> outcomes = new ArrayList<>();
        for (ProcessGroup g : groups) {
            outcomes.add(pool.submit(() -> {
                try {
                    g.allreduce(TestData.values(g.rank(), N), ReduceOp.SUM);
                    return "returned";
                } catch (ProcessFailedException e) {
                    return "failed " + e.failedRanks();
                }
            }));
        }
        assertThat(written.await(30, TimeUnit.SECONDS)).as("the victim wrote its input and said so").isTrue();
        Thread.sleep(200); // room for a defect to let a survivor return without the victim's result (not synchronisation)
        for (int r = 0; r < SIZE; r++) {
            if (r != victim) { // the victim itself has every other segment and can finish
                assertThat(outcomes.get(r).isDone()).as("rank " + r + " cannot finish without the victim's segment").isFalse();
            }
        }
        hub.isolate(victim);
        for (int r = 0; r < SIZE; r++) {
            if (r != victim) {
                assertThat(outcomes.get(r).get(30, TimeUnit.SECONDS)).as("rank " + r).isEqualTo("failed [" + victim + "]");
            }
        }
    }
}
