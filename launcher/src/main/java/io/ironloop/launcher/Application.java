package io.ironloop.launcher;

import io.ironloop.ConfigurationException;
import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The program every rank runs: a main class, plus the JAR it came from when given as a JAR. Immutable.
 *
 * @param mainClass the fully qualified main class
 * @param jar the JAR to add to the class path, when the application was given as one
 */
public record Application(String mainClass, Optional<Path> jar) {

    /**
     * @throws IllegalArgumentException if the main class is blank
     */
    public Application {
        Objects.requireNonNull(jar, "jar");
        if (mainClass == null || mainClass.isBlank()) {
            throw new IllegalArgumentException("main class must not be blank");
        }
    }

    /**
     * A main class or, if the text names a {@code .jar} file, that JAR's {@code Main-Class}.
     *
     * @param mainClassOrJar a fully qualified class name or the path of a JAR
     * @param workingDirectory where relative paths resolve
     * @return the application
     * @throws ConfigurationException if the JAR cannot be read or its manifest has no {@code Main-Class}
     */
    public static Application of(String mainClassOrJar, Path workingDirectory) {
        if (!mainClassOrJar.endsWith(".jar")) {
            return new Application(mainClassOrJar, Optional.empty());
        }
        Path jar = workingDirectory.resolve(mainClassOrJar).toAbsolutePath().normalize();
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            String main = manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            if (main == null || main.isBlank()) {
                throw new ConfigurationException(jar + " has no Main-Class in its manifest: give the main class"
                        + " instead, with the JAR in --cp");
            }
            return new Application(main.strip(), Optional.of(jar));
        } catch (IOException e) {
            throw new ConfigurationException("cannot read JAR " + jar + ": " + e.getMessage(), e);
        }
    }

    /**
     * Checks that the main class can be found on a class path (directories, JARs, {@code dir/*}
     * wildcards and JARs' {@code Class-Path}), so that a misspelt name is a usage error rather than N failing JVMs.
     *
     * @param classpath the rank class path, in order
     * @param workingDirectory where relative entries resolve
     * @throws ConfigurationException if no entry contains the class file
     */
    public void verifyOn(List<String> classpath, Path workingDirectory) {
        List<URL> urls = new ArrayList<>();
        for (String entry : classpath) {
            if (entry.isBlank()) {
                continue;
            }
            if (entry.equals("*") || entry.endsWith(File.separator + "*")) {
                urls.addAll(jarsIn(workingDirectory.resolve(entry.substring(0, entry.length() - 1))));
            } else {
                urls.add(url(workingDirectory.resolve(entry)));
            }
        }
        String resource = mainClass.replace('.', '/') + ".class";
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            if (loader.getResource(resource) != null) {
                return;
            }
        } catch (IOException e) {
            throw new ConfigurationException("cannot inspect the rank class path: " + e.getMessage(), e);
        }
        throw new ConfigurationException("main class " + mainClass + " is not on the rank class path"
                + " (the launcher's own class path plus --cp): check the name, or add its directory or JAR with --cp");
    }

    private static List<URL> jarsIn(Path dir) {
        List<URL> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(dir, "*.{jar,JAR}")) {
            for (Path jar : jars) {
                out.add(url(jar));
            }
        } catch (IOException e) {
            throw new ConfigurationException("cannot list class path directory " + dir + ": " + e.getMessage(), e);
        }
        return out;
    }

    private static URL url(Path path) {
        try {
            return path.toAbsolutePath().toUri().toURL();
        } catch (MalformedURLException e) {
            throw new ConfigurationException("class path entry " + path + " is not a valid path: " + e.getMessage(), e);
        }
    }
}
