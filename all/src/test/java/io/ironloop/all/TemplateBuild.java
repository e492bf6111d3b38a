package io.ironloop.all;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The template project ({@code template/}) built the way a user builds it: Ironloop's artifacts installed into a
 * local Maven repository, then {@code mvn package} of the template against them. Done once per test JVM.
 *
 * <p>The shared {@code ~/.m2/repository} is never written: both Maven runs use a private local repository in a
 * temporary directory ({@code -Dmaven.repo.local}). Third-party artifacts (Jackson, JGroups, the plugins) are
 * copied into it from the build's own local repository, declared as a read-only {@code file:} repository in a
 * private settings file, with Maven Central behind it for anything missing. Ironloop's artifacts are installed by
 * the install plugin ({@code install-file}, one execution per module, in one Maven run) from the jars and poms
 * this build just made, exactly where {@code mvn install} in a clone puts them.
 */
final class TemplateBuild {
    static final Path ROOT = Path.of(System.getProperty("ironloop.root", "..")).toAbsolutePath().normalize();
    static final String VERSION = System.getProperty("ironloop.version", "");
    static final Path ALL_JAR = Path.of(System.getProperty("ironloop.allJar", "target/ironloop-all.jar")).toAbsolutePath();
    /** The modules a user's application needs (ironloop-runtime and what it depends on). */
    static final List<String> LIBRARY_MODULES = List.of("base", "format", "core", "group", "runtime");

    private static Path appJar;
    private static Path work;

    private TemplateBuild() {
    }

    /** The template's application jar, built on first use. */
    static synchronized Path appJar() throws Exception {
        if (appJar == null) {
            appJar = build();
        }
        return appJar;
    }

    /** The directory of the two Maven runs' logs and the private repository. */
    static synchronized Path work() {
        return work;
    }

    /** What {@code com.example.MyLoop cells steps} prints on rank 0 of {@code ranks}, computed here without Ironloop. */
    static String expectedResult(int ranks, int cells, int steps) {
        double[] field = new double[cells];
        for (int s = 0; s < steps; s++) {
            for (int i = 0; i < cells; i++) {
                double sum = 0;
                for (int r = 0; r < ranks; r++) {
                    sum += (r + 1) * ((i + s) % 7);
                }
                field[i] = 0.5 * field[i] + sum;
            }
        }
        double total = 0;
        for (double v : field) {
            total += v;
        }
        return String.format(Locale.ROOT, "result %.3f", total);
    }

    private static Path build() throws Exception {
        assertThat(VERSION).as("run by failsafe, which passes ironloop.version").isNotBlank();
        assertThat(ALL_JAR).as("the shaded jar, made in the package phase").isRegularFile();
        work = Files.createTempDirectory("ironloop-template-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(work)));
        Path repo = work.resolve("repository");
        Path settings = Files.writeString(work.resolve("settings.xml"), settings(Path.of(System.getProperty("ironloop.seedRepository",
                System.getProperty("user.home") + "/.m2/repository"))));
        Path installer = Files.createDirectories(work.resolve("installer"));
        Files.writeString(installer.resolve("pom.xml"), installerPom());
        List<String> mvn = List.of(System.getProperty("ironloop.maven", "mvn"), "-B", "-q", "-s", settings.toString(),
                "-Dmaven.repo.local=" + repo);
        Processes.Result install = Processes.run(concat(mvn, "-f", installer.resolve("pom.xml").toString(), "validate"), work,
                Map.of(), "install", Duration.ofMinutes(5));
        assertThat(install.status()).as("installing Ironloop into the private repository: %s", install.describe()).isZero();

        Path template = work.resolve("template");
        copyTree(ROOT.resolve("template"), template);
        Processes.Result pkg = Processes.run(concat(mvn, "-f", template.resolve("pom.xml").toString(), "package"), work, Map.of(),
                "template", Duration.ofMinutes(5));
        assertThat(pkg.status()).as("mvn package of the template: %s", pkg.describe()).isZero();
        Path jar = template.resolve("target/my-ironloop-app-1.0.jar");
        assertThat(jar).isRegularFile();
        return jar;
    }

    private static String settings(Path seed) {
        String repository = """
                <id>build-local-read-only</id><url>%s</url>
                <releases><enabled>true</enabled></releases><snapshots><enabled>false</enabled></snapshots>""".formatted(seed.toUri());
        return """
                <settings>
                  <profiles><profile><id>seed</id>
                    <repositories><repository>%s</repository></repositories>
                    <pluginRepositories><pluginRepository>%s</pluginRepository></pluginRepositories>
                  </profile></profiles>
                  <activeProfiles><activeProfile>seed</activeProfile></activeProfiles>
                </settings>
                """.formatted(repository, repository);
    }

    private static String installerPom() {
        StringBuilder executions = new StringBuilder();
        executions.append(execution("parent", ROOT.resolve("pom.xml"), ROOT.resolve("pom.xml")));
        executions.append(execution("bom", ROOT.resolve("bom/pom.xml"), ROOT.resolve("bom/pom.xml")));
        for (String m : LIBRARY_MODULES) {
            executions.append(execution(m, ROOT.resolve(m + "/target/ironloop-" + m + "-" + VERSION + ".jar"), ROOT.resolve(m + "/pom.xml")));
        }
        return """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>io.ironloop.test</groupId><artifactId>install-ironloop</artifactId><version>1</version><packaging>pom</packaging>
                  <build><plugins><plugin>
                    <groupId>org.apache.maven.plugins</groupId><artifactId>maven-install-plugin</artifactId><version>3.1.4</version>
                    <executions>%s</executions>
                  </plugin></plugins></build>
                </project>
                """.formatted(executions);
    }

    private static String execution(String id, Path file, Path pom) {
        assertThat(file).as("built by this reactor before the integration tests").isRegularFile();
        return "<execution><id>%s</id><phase>validate</phase><goals><goal>install-file</goal></goals><configuration><file>%s</file><pomFile>%s</pomFile></configuration></execution>\n"
                .formatted(id, file, pom);
    }

    private static List<String> concat(List<String> a, String... b) {
        return Stream.concat(a.stream(), Stream.of(b)).toList();
    }

    /** Copies a source tree, leaving out build output. */
    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.filter(f -> !from.relativize(f).startsWith("target")).toList()) {
                Path t = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(f, t);
                }
            }
        }
    }

    private static void deleteTree(Path dir) {
        try {
            io.ironloop.Folders.deleteTree(dir);
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e);
        }
    }
}
