package io.ironloop.all;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.ironloop.config.Parameters;
import io.ironloop.core.EngineKeys;
import io.ironloop.runtime.RuntimeKeys;
import io.ironloop.runtime.trigger.TerminationSignal;
import io.ironloop.runtime.trigger.TriggerKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster examples read as their consumers read them: the Kubernetes manifests parsed as YAML and checked
 * for what recovery needs (no cluster runs here: what a real one would add is in docs/operations.md), their
 * parameter file and the Slurm one loaded by Ironloop's own parameter parser, the batch script parsed by bash.
 * The Slurm script's behaviour with real rank processes is {@link SlurmScriptIT}.
 */
class ClusterExamplesTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path MANIFESTS = ROOT.resolve("docs/k8s/ironloop-job.yaml");

    @TempDir
    Path dir;

    private static Map<String, JsonNode> manifestsByKind() throws Exception {
        Map<String, JsonNode> byKind = new HashMap<>();
        try (var docs = new YAMLMapper().readValues(new YAMLFactory().createParser(MANIFESTS.toFile()), JsonNode.class)) {
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                assertThat(byKind.put(doc.path("kind").asText(), doc)).as("one %s", doc.path("kind").asText()).isNull();
            }
        }
        assertThat(byKind).containsOnlyKeys("Service", "ConfigMap", "PersistentVolumeClaim", "Job");
        return byKind;
    }

    private static Map<String, JsonNode> env(JsonNode container) {
        Map<String, JsonNode> env = new HashMap<>();
        container.path("env").forEach(e -> env.put(e.path("name").asText(), e));
        return env;
    }

    private static JsonNode named(JsonNode list, String name) {
        return StreamSupport.stream(list.spliterator(), false).filter(n -> name.equals(n.path("name").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no entry named " + name + " in " + list));
    }

    @Test
    void kubernetesJob_survivesALostPod_andKeepsItsCheckpointsAndParameters() throws Exception {
        Map<String, JsonNode> m = manifestsByKind();
        JsonNode job = m.get("Job").path("spec");
        JsonNode pod = job.path("template").path("spec");
        JsonNode rank = pod.path("containers").get(0);
        Map<String, JsonNode> env = env(rank);

        // one rank per index, as many as the group expects
        assertThat(job.path("completionMode").asText()).isEqualTo("Indexed");
        assertThat(job.path("parallelism").asInt()).isEqualTo(job.path("completions").asInt());
        assertThat(env.get("IRONLOOP_GROUP_SIZE").path("value").asInt()).isEqualTo(job.path("completions").asInt());

        // a lost, evicted or preempted pod, and the survivors that saved and exited, do not use up the Job's retries
        assertThat(pod.path("restartPolicy").asText()).as("podFailurePolicy requires Never").isEqualTo("Never");
        JsonNode rules = job.path("podFailurePolicy").path("rules");
        assertThat(rules.findValuesAsText("type")).contains("DisruptionTarget");
        JsonNode exitRule = StreamSupport.stream(rules.spliterator(), false).filter(r -> r.has("onExitCodes")).findFirst().orElseThrow();
        assertThat(exitRule.path("action").asText()).isEqualTo("Ignore");
        assertThat(exitRule.path("onExitCodes").path("containerName").asText()).isEqualTo(rank.path("name").asText());
        assertThat(exitRule.path("onExitCodes").path("operator").asText()).isEqualTo("In");
        List<Integer> ignored = new ArrayList<>();
        exitRule.path("onExitCodes").path("values").forEach(v -> ignored.add(v.asInt()));
        assertThat(ignored).containsExactlyInAnyOrder(75, TerminationSignal.TERM.linuxExitStatus(), TerminationSignal.USR1.linuxExitStatus());
        assertThat(job.path("backoffLimit").asInt()).isPositive();

        // the parameter file comes from the ConfigMap, and Ironloop's parser accepts it
        JsonNode paramsMount = named(rank.path("volumeMounts"), "params");
        JsonNode paramsVolume = named(pod.path("volumes"), "params");
        assertThat(paramsVolume.path("configMap").path("name").asText()).isEqualTo(m.get("ConfigMap").path("metadata").path("name").asText());
        String key = m.get("ConfigMap").path("data").fieldNames().next();
        assertThat(env.get("IRONLOOP_PARAMS").path("value").asText()).isEqualTo(paramsMount.path("mountPath").asText() + "/" + key);
        Path file = Files.writeString(dir.resolve(key), m.get("ConfigMap").path("data").path(key).asText());
        Parameters p = Parameters.load(RuntimeKeys.TABLE, file, Map.of(), Map.of());

        // checkpoints on the shared volume, which outlives pods and can be mounted on every node at once
        JsonNode pvc = m.get("PersistentVolumeClaim");
        assertThat(pvc.path("spec").path("accessModes").toString()).contains("ReadWriteMany");
        assertThat(named(pod.path("volumes"), "checkpoints").path("persistentVolumeClaim").path("claimName").asText())
                .isEqualTo(pvc.path("metadata").path("name").asText());
        String data = named(rank.path("volumeMounts"), "checkpoints").path("mountPath").asText();
        assertThat(p.get(EngineKeys.FT_FOLDER)).startsWithRaw(Path.of(data));

        // SIGTERM on eviction saves, and Kubernetes waits for the save
        assertThat(p.get(TriggerKeys.TRIGGER_SIGNAL)).isTrue();
        assertThat(Duration.ofSeconds(pod.path("terminationGracePeriodSeconds").asLong()))
                .isGreaterThan(p.get(TriggerKeys.TRIGGER_SIGNAL_DEADLINE).plusSeconds(5));

        // discovery through the headless Service; the secret readable by its owner only
        JsonNode service = m.get("Service");
        assertThat(service.path("spec").path("clusterIP").asText()).isEqualTo("None");
        assertThat(pod.path("subdomain").asText()).isEqualTo(service.path("metadata").path("name").asText());
        assertThat(env.get("IRONLOOP_GROUP_DNS_QUERY").path("value").asText()).startsWith(service.path("metadata").path("name").asText() + ".");
        assertThat(service.path("spec").path("selector")).isEqualTo(job.path("template").path("metadata").path("labels"));
        JsonNode secret = named(pod.path("volumes"), "secret").path("secret");
        assertThat(secret.path("defaultMode").asText()).isIn("256", "0400"); // YAML 1.1 reads 0400 as octal
        assertThat(env.get("IRONLOOP_SECRET_FILE").path("value").asText())
                .startsWith(named(rank.path("volumeMounts"), "secret").path("mountPath").asText() + "/");
        assertThat(env.get("IRONLOOP_JOB").path("valueFrom").path("fieldRef").path("fieldPath").asText()).contains("job-name");
    }

    @Test
    void kubernetesImage_dockerfilePutsTheJarsWhereTheJobLooksForThem() throws Exception {
        JsonNode rank = manifestsByKind().get("Job").path("spec").path("template").path("spec").path("containers").get(0);
        List<String> command = new ArrayList<>();
        rank.path("command").forEach(c -> command.add(c.asText()));
        String classpath = command.get(command.indexOf("-cp") + 1);
        String dockerfile = Files.readString(ROOT.resolve("docs/k8s/Dockerfile"));
        Matcher copy = Pattern.compile("(?m)^COPY \\S+ (\\S+)$").matcher(dockerfile);
        List<String> copied = new ArrayList<>();
        while (copy.find()) {
            copied.add(copy.group(1));
        }
        assertThat(List.of(classpath.split(":"))).containsExactlyInAnyOrderElementsOf(copied);
        assertThat(dockerfile).contains("COPY ironloop-all.jar ").containsPattern("(?m)^FROM eclipse-temurin:17-");
        assertThat(command).contains("com.example.MyLoop");
    }

    @Test
    void slurmScript_parsesAndAsksForWhatRecoveryNeeds() throws Exception {
        Path script = ROOT.resolve("examples/slurm/ironloop.sbatch");
        Process bash = new ProcessBuilder("bash", "-n", script.toString()).redirectErrorStream(true).start();
        assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(bash.exitValue()).as(new String(bash.getInputStream().readAllBytes())).isZero();
        String text = Files.readString(script);
        Matcher signal = Pattern.compile("(?m)^#SBATCH --signal=USR1@(\\d+)$").matcher(text);
        assertThat(signal.find()).as("the ranks (not only the batch shell: no B:) get USR1 before the limit").isTrue();
        assertThat(text).contains("#SBATCH --requeue", "#SBATCH --no-kill", "scontrol requeue", "srun ");

        Parameters p = Parameters.load(RuntimeKeys.TABLE, ROOT.resolve("examples/slurm/ironloop.json"), Map.of(), Map.of());
        assertThat(p.get(TriggerKeys.TRIGGER_SIGNAL)).isTrue();
        assertThat(TerminationSignal.parseList(p.get(TriggerKeys.TRIGGER_SIGNALS))).contains(TerminationSignal.USR1, TerminationSignal.TERM);
        assertThat(p.get(TriggerKeys.TRIGGER_SIGNAL_DEADLINE)).as("the save ends before the time limit")
                .isLessThan(Duration.ofSeconds(Long.parseLong(signal.group(1))));
        assertThat(p.get(EngineKeys.FT_FOLDER).isAbsolute()).as("relative: on the shared submit directory").isFalse();
    }

    @Test
    void bom_listsEveryModuleTheParentManages_atTheParentsVersion() throws Exception {
        String parent = Files.readString(ROOT.resolve("pom.xml"));
        String bom = Files.readString(ROOT.resolve("bom/pom.xml"));
        Pattern managed = Pattern.compile("<groupId>io\\.ironloop</groupId><artifactId>(ironloop-[a-z]+)</artifactId><version>\\$\\{project\\.version\\}</version>");
        // the parent manages a test jar beside its main jar for some modules (the launcher's); the BOM lists each module once
        assertThat(all(managed, bom)).isNotEmpty().containsExactlyInAnyOrderElementsOf(all(managed, parent).stream().distinct().toList());
        Pattern own = Pattern.compile("<artifactId>ironloop-(?:parent|bom)</artifactId>\\s*<version>([^<]+)</version>");
        assertThat(all(own, bom)).isEqualTo(all(own, parent)).hasSize(1);
        assertThat(all(own, Files.readString(ROOT.resolve("template/pom.xml")).replaceAll(
                "(?s).*<ironloop\\.version>([^<]+)</ironloop\\.version>.*", "<artifactId>ironloop-bom</artifactId><version>$1</version>")))
                .as("the template depends on this version").isEqualTo(all(own, parent));
    }

    private static List<String> all(Pattern pattern, String text) {
        List<String> found = new ArrayList<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }
}
