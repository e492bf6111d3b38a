package io.ironloop.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.ConfigurationException;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.group.launch.LaunchEnvironment;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's value types and policies, without processes. */
class LaunchModelTest {
    @TempDir
    Path dir;

    @Test
    void parseKills_listOfRankAtIteration() {
        assertThat(Fault.parseKills("1@3, 0@12")).containsExactly(new Fault.KillAtIteration(1, 3),
                new Fault.KillAtIteration(0, 12));
        assertThatThrownBy(() -> Fault.parseKills("1@x")).hasMessageContaining("'x' is not a whole number");
        assertThatThrownBy(() -> Fault.parseKills("1@-2")).hasMessageContaining("must not be negative");
    }

    @Test
    void parsePreemptions_secondsOrUnits() {
        assertThat(Fault.parsePreemptions("0@1.5,1@250ms")).containsExactly(
                new Fault.Preemption(0, Duration.ofMillis(1500)), new Fault.Preemption(1, Duration.ofMillis(250)));
        assertThatThrownBy(() -> Fault.parsePreemptions("0@soon")).hasMessageContaining("--preempt 0@soon");
    }

    @Test
    void parsePreemptions_iterationFormBesideSeconds() {
        assertThat(Fault.parsePreemptions("2@it3, 0@5, 1@it0")).containsExactly(new Fault.PreemptAtIteration(2, 3),
                new Fault.Preemption(0, Duration.ofSeconds(5)), new Fault.PreemptAtIteration(1, 0));
        assertThat(new Fault.PreemptAtIteration(2, 3).describe()).isEqualTo("--preempt 2@it3");
        assertThat(Fault.parsePreemptions(new Fault.PreemptAtIteration(2, 3).describe().substring("--preempt ".length())))
                .as("describe() parses back").containsExactly(new Fault.PreemptAtIteration(2, 3));
        assertThatThrownBy(() -> Fault.parsePreemptions("2@itx")).hasMessageContaining("--preempt 2@itx", "'x' is not a whole number");
        assertThatThrownBy(() -> Fault.parsePreemptions("2@it-1")).hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> Fault.parsePreemptions("2")).hasMessageContaining("RANK@itITER or RANK@SECONDS");
    }

    @Test
    void launchSpec_iterationFaultsOfBothSignals_checkedAgainstPlanAndRanks() {
        LaunchSpec.Builder base = LaunchSpec.builder().ranks(3).application(new Application("x.Main", Optional.empty()));
        LaunchSpec spec = base.kill(new Fault.KillAtIteration(1, 5)).preempt(new Fault.PreemptAtIteration(1, 5))
                .preempt(new Fault.Preemption(2, Duration.ofSeconds(1))).build();
        assertThat(spec.atIteration()).containsExactly(new Fault.KillAtIteration(1, 5), new Fault.PreemptAtIteration(1, 5));
        assertThat(spec.kills()).containsExactly(new Fault.KillAtIteration(1, 5));
        assertThat(spec.preemptions()).containsExactly(new Fault.Preemption(2, Duration.ofSeconds(1)));
        assertThatThrownBy(() -> LaunchSpec.builder().ranks(3).application(new Application("x.Main", Optional.empty()))
                .lastIteration(4).preempt(new Fault.PreemptAtIteration(0, 6)).build())
                .hasMessageContaining("--preempt 0@it6 is past the last iteration (4");
        assertThatThrownBy(() -> LaunchSpec.builder().ranks(3).application(new Application("x.Main", Optional.empty()))
                .preempt(new Fault.PreemptAtIteration(3, 1)).build())
                .hasMessageContaining("--preempt 3@it1: rank 3 does not exist");
    }

    @Test
    void faultInjector_killBeforePreemptAtTheSameIteration_eachOnce() {
        FaultInjector f = new FaultInjector(java.time.Instant.now(),
                List.of(new Fault.PreemptAtIteration(1, 4), new Fault.KillAtIteration(1, 4), new Fault.PreemptAtIteration(1, 2)),
                List.of());
        assertThat(f.syncIterations(1)).containsExactly(2L, 4L);
        assertThat(f.syncIterations(0)).isEmpty();
        assertThat(f.takeAt(1, 4)).contains(new Fault.KillAtIteration(1, 4));
        assertThat(f.takeAt(1, 4)).contains(new Fault.PreemptAtIteration(1, 4));
        assertThat(f.takeAt(1, 4)).isEmpty();
        assertThat(f.takeAt(1, -1)).as("a negative iteration from a rank matches no fault").isEmpty();
        assertThat(f.checkPlan(1)).hasValueSatisfying(m -> assertThat(m).contains("--preempt 1@it2"));
        assertThat(f.unfired()).containsExactly(new Fault.PreemptAtIteration(1, 2));
    }

    @Test
    void builder_rejectsBadRepeatedAndConflictingSettings() {
        Application app = new Application("x.Main", Optional.empty());
        assertThatThrownBy(() -> LaunchSpec.builder().ranks(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LaunchSpec.builder().ranks(2).ranks(3)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> LaunchSpec.builder().jobId("bad id")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LaunchSpec.builder().ranks(2).application(app)
                .kill(new Fault.KillAtIteration(1, 3)).kill(new Fault.KillAtIteration(1, 3)).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("given twice");
        assertThatThrownBy(() -> LaunchSpec.builder().ranks(2).application(app).lastIteration(5)
                .kill(new Fault.KillAtIteration(1, 6)).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("past the last iteration (5");
        assertThat(LaunchSpec.builder().ranks(2).application(app).lastIteration(5)
                .kill(new Fault.KillAtIteration(1, 5)).build().kills()).hasSize(1);
    }

    @Test
    void application_jarMainClassFromManifest() throws Exception {
        Path jar = dir.resolve("app.jar");
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "com.example.Solver");
        try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o, m)) {
            j.flush();
        }
        Application app = Application.of("app.jar", dir);
        assertThat(app.mainClass()).isEqualTo("com.example.Solver");
        assertThat(app.jar()).contains(jar);

        Path plain = dir.resolve("plain.jar");
        try (OutputStream o = Files.newOutputStream(plain); JarOutputStream j = new JarOutputStream(o)) {
            j.flush();
        }
        assertThatThrownBy(() -> Application.of("plain.jar", dir)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("no Main-Class");
    }

    @Test
    void application_verifyOnClasspath() {
        List<String> cp = List.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator));
        new Application(LoopApp.class.getName(), Optional.empty()).verifyOn(cp, dir);
        assertThatThrownBy(() -> new Application("no.Such", Optional.empty()).verifyOn(cp, dir))
                .isInstanceOf(ConfigurationException.class);
    }

    @Test
    void jobSecret_createdOwnerOnlyAndVerifiesMacs() throws Exception {
        JobSecret s = JobSecret.create(dir, "job");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(s.file()))).isEqualTo("rw-------");
        assertThat(Files.readString(s.file()).strip()).matches("[0-9a-f]{64}");
        JobSecret same = JobSecret.load(s.file());
        String mac = s.hmacHex("hello");
        assertThat(same.verify("hello", mac)).isTrue();
        assertThat(same.verify("hellO", mac)).isFalse();
        assertThat(same.verify("hello", "zz")).isFalse();
        assertThat(s.toString()).doesNotContain(Files.readString(s.file()).strip());
    }

    @Test
    void jobSecret_tooShortOrGroupReadableIsRefused() throws Exception {
        Path shortOne = dir.resolve("short");
        Files.writeString(shortOne, "abc");
        Files.setPosixFilePermissions(shortOne, PosixFilePermissions.fromString("rw-------"));
        assertThatThrownBy(() -> JobSecret.load(shortOne)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("at least 16");
        Path open = dir.resolve("open");
        Files.writeString(open, "0123456789abcdef0123");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r-----"));
        assertThatThrownBy(() -> JobSecret.load(open)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("rw-r-----");
    }

    @Test
    void launchEnvironment_parsesTheContract() {
        Map<String, String> env = Map.of("IRONLOOP_RANK", "1", "IRONLOOP_SIZE", "2", "IRONLOOP_JOB", "j",
                "IRONLOOP_PEERS", "127.0.0.1:5000,127.0.0.1:5001", "IRONLOOP_SECRET_FILE", "/tmp/s",
                "IRONLOOP_ATTEMPT", "3", "IRONLOOP_LAUNCHER", "127.0.0.1:4000");
        LaunchEnvironment e = LaunchEnvironment.from(env).orElseThrow();
        assertThat(e.rank()).isEqualTo(1);
        assertThat(e.attempt()).isEqualTo(3);
        assertThat(e.peers()).extracting(p -> p.getPort()).containsExactly(5000, 5001);
        assertThat(e.params()).isEmpty();
        assertThat(LaunchEnvironment.from(Map.of())).isEmpty();
        Map<String, String> broken = new java.util.HashMap<>(env);
        broken.remove("IRONLOOP_PEERS");
        assertThatThrownBy(() -> LaunchEnvironment.from(broken)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("IRONLOOP_PEERS is not set");
        broken.put("IRONLOOP_PEERS", "127.0.0.1:5000");
        assertThatThrownBy(() -> LaunchEnvironment.from(broken)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("1 peers for 2 ranks");
    }
}
