package io.ironloop.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironloop.launcher.rank.ControlProtocol;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.group.launch.LaunchEnvironment;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Only the job's ranks, proven by the job secret and their PID, may talk to the launcher. */
class ControlSocketSecurityTest {
    private final String jobId = "t-" + UUID.randomUUID().toString().substring(0, 8);
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final ExecutorService executor = Executors.newSingleThreadExecutor();

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        executor.shutdownNow();
        JobProcesses.killJob(jobId);
    }

    private Path secretFile(String name, String content) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, content);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        return f;
    }

    @Test
    void controlSocket_wrongSecretForgedEventOrForeignPid_areRefusedAndLogged() throws Exception {
        Path jobSecret = secretFile("job.secret", "0123456789abcdef0123456789abcdef");
        Path otherSecret = secretFile("other.secret", "fedcba9876543210fedcba9876543210");
        List<TimelineEvent> events = new CopyOnWriteArrayList<>();
        CompletableFuture<String> control = new CompletableFuture<>();
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(1).jobId(jobId).workingDirectory(dir).secretFile(jobSecret)
                .application(new Application(LoopApp.class.getName(), Optional.empty()))
                .arguments(List.of("iterations=100000", "sleep-ms=20")).grace(Duration.ofSeconds(10))
                .out(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                .err(new PrintStream(err, true, StandardCharsets.UTF_8))
                .eventListener(e -> {
                    events.add(e);
                    if (e.type().equals(TimelineEvent.JOB_STARTED)) {
                        control.complete((String) e.fields().get("control"));
                    }
                });
        JobProcesses.SMALL_JVM.forEach(b::jvmOption);
        Launcher launcher = new Launcher(b.build());
        Future<LaunchResult> run = executor.submit(launcher::execute);
        InetSocketAddress address = LaunchEnvironment.address("control", control.get(30, TimeUnit.SECONDS));
        await().atMost(Duration.ofSeconds(60)).until(() -> events.stream().anyMatch(e -> e.type().equals("iteration")));
        long myPid = ProcessHandle.current().pid();

        ObjectNode wrongSecret = hello(address, JobSecret.load(otherSecret), jobId, 0, 0, myPid);
        ObjectNode forged = forgedEvent(address);
        ObjectNode foreignPid = hello(address, JobSecret.load(jobSecret), jobId, 0, 0, myPid);

        assertThat(wrongSecret.path("type").asText()).isEqualTo(ControlProtocol.REFUSED);
        assertThat(wrongSecret.path("reason").asText()).contains("authentication failed (wrong job secret)");
        assertThat(forged.path("type").asText()).isEqualTo(ControlProtocol.REFUSED);
        assertThat(forged.path("reason").asText()).contains("before authenticating");
        assertThat(foreignPid.path("type").asText()).isEqualTo(ControlProtocol.REFUSED);
        assertThat(foreignPid.path("reason").asText()).contains("pid " + myPid + " is not the process of rank 0");
        await().atMost(Duration.ofSeconds(10)).until(() -> events.stream()
                .filter(e -> e.type().equals(TimelineEvent.CONNECTION_REFUSED)).count() == 3);

        launcher.deliver(LauncherSignal.TERM);
        LaunchResult result = run.get(60, TimeUnit.SECONDS);

        assertThat(result.exitStatus()).isEqualTo(143);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("refused control connection from", "wrong job secret", "before authenticating");
        assertThat(result.timeline()).noneMatch(e -> e.longField("iteration").orElse(0) == 99);
        assertThat(result.events(TimelineEvent.RANK_CONNECTED)).hasSize(1);
        assertThat(jobSecret).as("an operator's secret file is left alone").exists();
    }

    private static ObjectNode hello(InetSocketAddress address, JobSecret secret, String job, int rank, int attempt, long pid)
            throws IOException {
        try (Socket s = new Socket()) {
            s.connect(address, 5000);
            s.setSoTimeout(10_000);
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            String nonce = ControlProtocol.read(in).orElseThrow().path("nonce").asText();
            String mac = secret.hmacHex(ControlProtocol.helloMacInput(nonce, job, rank, attempt, pid));
            ControlProtocol.write(out, ControlProtocol.message(ControlProtocol.HELLO).put("version", 1)
                    .put("job", job).put("rank", rank).put("attempt", attempt).put("pid", pid).put("mac", mac));
            return ControlProtocol.read(in).orElseThrow();
        }
    }

    private static ObjectNode forgedEvent(InetSocketAddress address) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(address, 5000);
            s.setSoTimeout(10_000);
            InputStream in = new BufferedInputStream(s.getInputStream());
            ControlProtocol.read(in).orElseThrow();
            ControlProtocol.write(s.getOutputStream(), ControlProtocol.message("iteration").put("iteration", 99));
            return ControlProtocol.read(in).orElseThrow();
        }
    }
}
