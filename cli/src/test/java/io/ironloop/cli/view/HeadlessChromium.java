package io.ironloop.cli.view;

import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;

/** Debian's Chromium run headless, one process per look at a page, each killed by PID if it overstays. */
final class HeadlessChromium {
    private static final long TIMEOUT_S = 20;
    private final Path binary;
    private final Path profile;

    HeadlessChromium(Path binary, Path profile) {
        this.binary = binary;
        this.profile = profile;
    }

    /** {@code chromium} (Debian) or {@code chromium-browser} on the PATH. */
    static Optional<Path> find() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    /** The page's DOM after its scripts ran (Chromium's {@code --dump-dom}). */
    String dumpDom(URI page) throws IOException, InterruptedException {
        Path out = profile.resolveSibling("dom.html");
        run(out, "--dump-dom", page.toString());
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** A screenshot of the page in a window of the given size, read back. */
    BufferedImage screenshot(URI page, Path png, int width, int height) throws IOException, InterruptedException {
        run(null, "--screenshot=" + png, "--window-size=" + width + "," + height, "--hide-scrollbars", page.toString());
        BufferedImage image = ImageIO.read(png.toFile());
        if (image == null) {
            throw new AssertionError(png + " is not an image Java can read");
        }
        return image;
    }

    private void run(Path stdout, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--disable-extensions", "--user-data-dir=" + profile, "--virtual-time-budget=3000"));
        cmd.addAll(List.of(args));
        Path log = profile.resolveSibling("chromium.log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(log.toFile());
        pb.redirectOutput(stdout == null ? ProcessBuilder.Redirect.appendTo(log.toFile()) : ProcessBuilder.Redirect.to(stdout.toFile()));
        Process p = pb.start();
        try {
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                throw new AssertionError("chromium took over " + TIMEOUT_S + " s: " + String.join(" ", cmd));
            }
            if (p.exitValue() != 0) {
                throw new AssertionError("chromium exited " + p.exitValue() + ": " + Files.readString(log));
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }
}
