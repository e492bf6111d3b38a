package io.ironloop.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} listing of the README compiles against the real API: each is pasted unchanged into a
 * method of a class that declares only the listing's free names (the application's own variables and
 * methods, listed in {@link #CONTEXTS}) and imports Ironloop's API packages, then compiled with
 * {@code javac} against the test class path. An error names the README line. The engine listing also runs,
 * in its own JVM and working directory, and must leave the checkpoints its policy asks for.
 */
class ReadmeListingsTest {
    private static final Path README = Path.of("..", "README.md").toAbsolutePath().normalize();

    /**
     * What a listing may use without declaring it: recognised by a fragment of the listing; {@code imports} are added to
     * the shared ones (e.g. to say which of two packages' {@code Kernel} the listing means).
     */
    private record Context(String recognisedBy, String declarations, String imports) {
        Context(String recognisedBy, String declarations) {
            this(recognisedBy, declarations, "");
        }
    }

    private static final List<Context> CONTEXTS = List.of(
            new Context("CheckpointEngine.open(", """
                    int n = 16;
                    int steps = 45;
                    static void advance(double[] field) { field[0] += 1; }
                    """),
            new Context("BlockLoop.builder(", """
                    long steps = 10;
                    io.ironloop.examples.blocks.heat.HeatBlocksConfig config = io.ironloop.examples.blocks.heat.HeatBlocksConfig.test();
                    """),
            new Context("Skeleton.builder(", """
                    int n = 16;
                    long steps = 10;
                    """, """
                    import io.ironloop.runtime.skeleton.*;
                    import io.ironloop.runtime.skeleton.Kernel;
                    import java.time.Duration;
                    """),
            new Context("Ironloop.start(", """
                    int n = 16;
                    long iterations = 3;
                    double[] globalData = new double[n];
                    double[] localData = new double[n];
                    long[] progress = new long[2];
                    String resultLine = "";
                    static void compute(double[] local, long iteration) { }
                    """),
            new Context("DeviceSession.open(", """
                    CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().build(), Store.inMemory());
                    int n = 16;
                    double[] aImage = new double[n * n];
                    double[] bImage = new double[n * n];
                    LongCell panel = new LongCell(0);
                    Kernel SUMMA = Kernel.java("summa", (args, from, to) -> { });
                    CheckpointPolicy policy = CheckpointPolicy.never();
                    static String digest(double[] values) { return ""; }
                    """));

    private static final String IMPORTS = """
            import io.ironloop.config.*;
            import io.ironloop.core.*;
            import io.ironloop.format.*;
            import io.ironloop.group.*;
            import io.ironloop.runtime.*;
            import io.ironloop.runtime.tasks.*;
            import io.ironloop.runtime.blocks.*;
            import io.ironloop.device.*;
            import io.ironloop.examples.blocks.heat.HeatBlock;
            import java.nio.file.*;
            import java.util.*;
            """;

    private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();

    @TempDir
    Path out;

    /** A listing and the README line its first statement is on. */
    private record Listing(int firstLine, String code) {
    }

    static List<Listing> listings(List<String> lines) {
        List<Listing> found = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equals("```java")) {
                int start = i + 1;
                int end = start;
                while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                    end++;
                }
                found.add(new Listing(start + 1, String.join("\n", lines.subList(start, end))));
                i = end;
            }
        }
        return found;
    }

    @Test
    void readme_everyJavaListing_compilesAgainstTheRealApi() throws Exception {
        List<Listing> listings = listings(Files.readAllLines(README));
        assertThat(listings).as("```java listings in " + README).hasSizeGreaterThanOrEqualTo(2);
        assertThat(javac).as("a JDK compiler (tests need a JDK, not a JRE)").isNotNull();
        List<String> problems = new ArrayList<>();
        for (int k = 0; k < listings.size(); k++) {
            Listing l = listings.get(k);
            Context context = CONTEXTS.stream().filter(c -> l.code().contains(c.recognisedBy())).findFirst().orElse(null);
            if (context == null) {
                problems.add("README.md:" + l.firstLine() + ": a listing no entry of ReadmeListingsTest.CONTEXTS recognises;"
                        + " add one declaring its free names");
                continue;
            }
            problems.addAll(compile("Listing" + k, context, l));
        }
        assertThat(problems).as("README listings that do not compile").isEmpty();
    }

    @Test
    void compile_listingWithAnError_reportsTheReadmeLine() {
        Listing broken = new Listing(40, "CheckpointEngine.open(1, 2, 3);\nint x = \"no\";");
        assertThat(compile("Broken", CONTEXTS.get(0), broken)).hasSizeGreaterThanOrEqualTo(2)
                .anySatisfy(p -> assertThat(p).startsWith("README.md:40:"))
                .anySatisfy(p -> assertThat(p).startsWith("README.md:41:"));
    }

    @Test
    void readme_engineListing_runsAndCommitsItsCheckpoints() throws Exception {
        Listing engine = listings(Files.readAllLines(README)).stream().filter(l -> l.code().contains(CONTEXTS.get(0).recognisedBy()))
                .findFirst().orElseThrow();
        assertThat(compile("EngineListing", CONTEXTS.get(0), engine)).isEmpty();
        Path cwd = Files.createDirectories(out.resolve("cwd"));
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-cp",
                out + File.pathSeparator + System.getProperty("java.class.path"), "readme.EngineListing")
                .directory(cwd.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        try (Store store = Store.directory(cwd.resolve("ironloop-data"))) {
            assertThat(StoreCatalog.of(store).lines(StoreCatalog.rankSeries(0)))
                    .extracting(LineInfo::iteration).as("everyCalls(20) over 45 steps").containsExactly(20L, 40L);
        }
    }

    private List<String> compile(String className, Context context, Listing listing) {
        String head = "package readme;\n" + IMPORTS + context.imports() + "public class " + className + " {\n" + context.declarations()
                + "public static void main(String[] args) throws Exception { new " + className + "().listing(); }\n"
                + "void listing() throws Exception {\n";
        int offset = (int) head.lines().count();
        String source = head + listing.code() + "\n}\n}\n";
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///readme/" + className + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<String> options = List.of("-classpath", System.getProperty("java.class.path"), "-d", out.toString(), "-proc:none",
                "-encoding", "UTF-8");
        boolean ok = javac.getTask(null, null, diagnostics, options, null, List.of(file)).call();
        List<String> problems = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                long line = d.getLineNumber() - offset;
                String where = line >= 1 ? "README.md:" + (listing.firstLine() + line - 1) : "README.md:" + listing.firstLine() + " (wrapper)";
                problems.add(where + ": " + d.getMessage(Locale.ROOT));
            }
        }
        if (!ok && problems.isEmpty()) {
            problems.add("README.md:" + listing.firstLine() + ": javac failed without an error diagnostic");
        }
        return problems;
    }
}
