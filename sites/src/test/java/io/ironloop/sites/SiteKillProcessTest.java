package io.ironloop.sites;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.format.Scope;
import io.ironloop.group.launch.FreePorts;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.sites.Topology.RankPlace;
import io.ironloop.sites.Topology.Site;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sites lost by {@code kill -9} of their protector JVMs ({@link SiteProtectorMain}) while bytes are moving: during the
 * replication of a site checkpoint to the neighbour, and during the placement of a lost site's checkpoint on the spare.
 * The moment inside the copy comes from a seed ({@code -Dironloop.test.seed=N} repeats a run; the seed is printed).
 * Either way what a site's ranks resume from is a whole committed line, bit for bit the state of its iteration. A
 * protector stopped ({@code SIGSTOP}) is declared like a dead one and, resumed, steps down.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SiteKillProcessTest {
    private static final long HEARTBEAT_MS = 100;
    private static final long TIMEOUT_MS = 1500; // shorter ones risk a false declaration at load 30+
    private static final int DOUBLES = 2 << 20; // 16 MiB per line: a copy lasts long enough to be cut in the middle
    private static final String SERIES = "rank-00001"; // site Y's rank

    @TempDir
    Path dir;

    private ProtectorOutput output() {
        return new ProtectorOutput(dir);
    }

    private final Map<String, Process> protectors = new LinkedHashMap<>();
    private final long seed = Long.getLong("ironloop.test.seed", System.nanoTime());
    private final SplittableRandom random = new SplittableRandom(seed);

    @AfterEach
    void killProtectors() throws InterruptedException {
        protectors.values().forEach(Process::destroyForcibly);
        for (Process p : protectors.values()) {
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Y's protector is killed while it ships a line to X (a temporary file of the line is growing in X's held store):
     * X declares Y (Z confirms), and what it places on the spare S is the newest line it holds whole — never the one cut
     * in the middle — restored there bit for bit.
     */
    @Test
    void siteKilledMidReplication_itsProtectorPlacesTheNewestWholeLine_bitForBit() throws Exception {
        System.out.println("SiteKillProcessTest seed " + seed);
        startProtectors();
        Path heldY = dir.resolve("held-X").resolve("Y").resolve(SERIES);
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicReference<Throwable> writerFailed = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                writeLines(dir.resolve("site-Y"), 1, Integer.MAX_VALUE, writing);
            } catch (Throwable t) {
                writerFailed.set(t);
            }
        }, "site-Y-ranks");
        writer.start();

        output().waitFor("Y", "event Shipped site=Y series=" + SERIES + " iteration=", 60_000); // X holds a whole line
        awaitTemporary(heldY, 60_000); // and the next one is on its way
        Thread.sleep(random.nextInt(30));
        kill("Y");
        writing.set(false); // the site's ranks go with it
        writer.join(60_000);
        assertThat(writerFailed.get()).isNull();

        output().waitFor("X", "event Declared site=X target=Y verified_by=Z", 30_000);
        Map<String, String> recovered = event("X", "Recovered", 30_000);
        assertThat(recovered).containsEntry("target", "S").containsEntry("kind", "SPARE_SITE").containsEntry("series", SERIES);
        long iteration = Long.parseLong(recovered.get("newest_iteration"));
        List<Long> held = whole(heldY.getParent()); // what X held whole when it placed
        assertThat(iteration).isEqualTo(held.get(held.size() - 1));
        assertRestoresBitForBit(dir.resolve("site-S"), iteration);
        assertThat(output().out("Z")).doesNotContain("Declared");
    }

    /**
     * Y is lost and X is placing its site checkpoint on the spare S when S's protector is killed in the middle of the
     * copy: X drops S from the table and places the checkpoint on its own site instead (Fig. 4), which restores it bit
     * for bit; every survivor learns the table without S.
     */
    @Test
    void spareKilledMidPlacement_theProtectorPlacesOnItsOwnSiteInstead_bitForBit() throws Exception {
        System.out.println("SiteKillProcessTest seed " + seed);
        startProtectors();
        writeLines(dir.resolve("site-Y"), 1, 3, new AtomicBoolean(true));
        output().waitFor("Y", "event Shipped site=Y series=" + SERIES + " iteration=3", 60_000);

        kill("Y");
        awaitTemporary(dir.resolve("site-S").resolve(SERIES), 60_000); // X is copying Y's lines to S
        Thread.sleep(random.nextInt(30));
        kill("S");

        Map<String, String> recovered = event("X", "Recovered", 30_000);
        assertThat(recovered).containsEntry("failed", "Y").containsEntry("target", "X").containsEntry("kind", "PROTECTOR_SITE")
                .containsEntry("newest_iteration", "3");
        assertThat(output().err("X")).contains("the spare site S cannot take site Y's ranks");
        assertRestoresBitForBit(dir.resolve("site-X"), 3);
        output().waitFor("Z", "event TableChanged site=Z table_version=" + recovered.get("table_version") + " ranks=0@X,1@X,2@Z", 30_000);
    }

    /**
     * Y's protector hung, not dead ({@code SIGSTOP}): X declares it (Z cannot reach it either) and places its lines on
     * the spare as for a dead one. Resumed ({@code SIGCONT}), Y's protector learns the table without its site from its
     * first heartbeat and steps down (exit 3) — it declares nobody, and what the spare holds still restores bit for bit.
     */
    @Test
    void protectorStoppedThenResumed_declaredLikeADeadOne_resumedItStepsDownAndCorruptsNothing() throws Exception {
        startProtectors();
        writeLines(dir.resolve("site-Y"), 1, 2, new AtomicBoolean(true));
        output().waitFor("Y", "event Shipped site=Y series=" + SERIES + " iteration=2", 60_000);

        signal("Y", "STOP");
        output().waitFor("X", "event Declared site=X target=Y verified_by=Z", 30_000);
        Map<String, String> recovered = event("X", "Recovered", 30_000);
        assertThat(recovered).containsEntry("target", "S").containsEntry("newest_iteration", "2");

        signal("Y", "CONT");
        output().waitFor("Y", "event Stopped site=Y", 30_000);
        assertThat(protectors.get("Y").waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(protectors.get("Y").exitValue()).isEqualTo(3);
        assertThat(output().out("Y")).doesNotContain("Declared").doesNotContain("Recovered");
        assertThat(output().err("Y")).contains("declared failed and replaced while this protector was silent");
        assertRestoresBitForBit(dir.resolve("site-S"), 2);
        assertThat(output().out("Z")).doesNotContain("Declared");
    }

    // ---- the sites

    private void startProtectors() throws Exception {
        JobSecret secret = JobSecret.create(dir, "job");
        int[] ports = FreePorts.allocate(4);
        Map<String, String> addresses = new LinkedHashMap<>();
        List<String> names = List.of("X", "Y", "Z", "S");
        for (int i = 0; i < names.size(); i++) {
            addresses.put(names.get(i), "127.0.0.1:" + ports[i]);
        }
        Topology table = Topology.of(List.of(new RankPlace(0, "x1", "X"), new RankPlace(1, "y1", "Y"), new RankPlace(2, "z1", "Z")),
                List.of(Site.spare("S", List.of("s1"), ""))).withProtectors(addresses);
        Path tableFile = Files.writeString(dir.resolve("table.txt"), table.encode());
        for (String s : names) {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx96m",
                    "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                    SiteProtectorMain.class.getName(), "--site", s, "--table", tableFile.toString(), "--site-folder",
                    dir.resolve("site-" + s).toString(), "--held-folder", dir.resolve("held-" + s).toString(), "--secret-file",
                    secret.file().toString(), "--heartbeat-ms", String.valueOf(HEARTBEAT_MS), "--timeout-ms", String.valueOf(TIMEOUT_MS)));
            protectors.put(s, new ProcessBuilder(cmd).redirectOutput(dir.resolve(s + ".out").toFile())
                    .redirectError(dir.resolve(s + ".err").toFile()).start());
        }
        for (String s : names) {
            output().waitFor(s, "listening", 60_000);
        }
    }

    /** Sends {@code SIG<name>} to a site's protector ({@code kill -STOP}, {@code kill -CONT}). */
    private void signal(String site, String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(protectors.get(site).pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -%s", name).isZero();
    }

    private void kill(String site) throws InterruptedException {
        Process p = protectors.get(site);
        p.destroyForcibly(); // SIGKILL
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    }

    // ---- the site's ranks: lines whose state is a function of the iteration

    private static double[] stateAt(long iteration) {
        Random rnd = new Random(iteration);
        double[] state = new double[DOUBLES];
        for (int k = 0; k < state.length; k++) {
            state[k] = rnd.nextDouble() + iteration;
        }
        return state;
    }

    /** Writes lines {@code from..to} of Y's rank in {@code folder} while {@code go} holds. */
    private static void writeLines(Path folder, long from, long to, AtomicBoolean go) {
        double[] state = new double[DOUBLES];
        try (Store store = Store.directory(folder);
                CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().series(SERIES).retainLines(3).build(), store)) {
            engine.protect("state", Scope.GLOBAL, state);
            for (long it = from; it <= to && go.get(); it++) {
                System.arraycopy(stateAt(it), 0, state, 0, DOUBLES);
                engine.checkpoint(it);
                engine.awaitDurable();
            }
        }
    }

    private static void assertRestoresBitForBit(Path folder, long iteration) {
        double[] restored = new double[DOUBLES];
        try (Store store = Store.directory(folder);
                CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().series(SERIES).build(), store)) {
            engine.protect("state", Scope.GLOBAL, restored);
            assertThat(engine.restore().orElseThrow().iteration()).isEqualTo(iteration);
        }
        assertThat(restored).isEqualTo(stateAt(iteration));
    }

    /** The iterations of the whole (committed, verified) lines of Y's rank in a store, oldest first. */
    private static List<Long> whole(Path folder) throws IOException {
        List<Long> iterations = new ArrayList<>();
        try (Store store = Store.directory(folder)) {
            StoreCatalog catalog = StoreCatalog.of(store);
            for (LineInfo line : catalog.lines(SERIES)) {
                if (catalog.verifyLine(SERIES, line.sequence()).problems().isEmpty()) {
                    iterations.add(line.iteration());
                }
            }
        }
        return iterations;
    }

    /** Waits until a temporary file (a copy under way) appears in {@code folder}. */
    private static void awaitTemporary(Path folder, long millis) throws Exception {
        long deadline = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < deadline) {
            if (Files.isDirectory(folder)) {
                try (Stream<Path> files = Files.list(folder)) {
                    if (files.anyMatch(f -> f.getFileName().toString().endsWith(StoreCatalog.TEMP_SUFFIX))) {
                        return;
                    }
                } catch (IOException racedWithARename) {
                    // a listing can meet a file renamed under it: look again
                }
            }
            Thread.sleep(1);
        }
        throw new AssertionError("no copy under way in " + folder + " within " + millis + " ms");
    }

    // ---- the protectors' output

    /** The fields of the first event of {@code type} that {@code site}'s protector prints. */
    private Map<String, String> event(String site, String type, long millis) throws Exception {
        output().waitFor(site, "event " + type + " ", millis);
        Matcher m = Pattern.compile("(?m)^event (" + type + " .*)$").matcher(output().out(site));
        assertThat(m.find()).isTrue();
        return SiteEvent.parse(m.group(1)).getValue();
    }
}
