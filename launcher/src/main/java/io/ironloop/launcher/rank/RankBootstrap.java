package io.ironloop.launcher.rank;

import io.ironloop.group.launch.LaunchEnvironment;
import io.ironloop.group.launch.JobSecret;

import io.ironloop.ConfigurationException;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

/**
 * The main class of every rank JVM the launcher starts:
 * {@code java … -Dironloop.rank=R -Dironloop.job=ID io.ironloop.launcher.rank.RankBootstrap MAINCLASS ARGS…}.
 *
 * <p>Under the launcher (its environment has {@value LaunchEnvironment#LAUNCHER}) it first connects to
 * the launcher's control socket and authenticates with the job secret, then starts a daemon watchdog
 * that halts the JVM with {@link #EXIT_LAUNCHER_LOST} as soon as that connection ends, and hands the
 * {@link LauncherLink} to {@link LauncherSubscriberProvider}, through which every runtime event stream of this
 * process reports to the launcher. Then it calls {@code MAINCLASS.main(ARGS)} on the calling thread. An exception
 * thrown by the application's {@code main} is first reported to the launcher ({@link LauncherLink#error}),
 * which names it as the cause of the failure and does not retry a deterministic one, then propagates
 * unchanged, so the JVM behaves as if the application had been started directly. Without the launcher's environment it only calls the application.
 */
public final class RankBootstrap {
    /** Exit status of a rank that halts because its launcher is gone. */
    public static final int EXIT_LAUNCHER_LOST = 96;
    /** Exit status of a rank that could not start: no main class, or the launcher unreachable or refusing. */
    public static final int EXIT_BOOTSTRAP_FAILED = 95;

    /** Longer than the launcher gives a connection (30 s), so that the launcher's refusal, with its reason, comes first. */
    private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(40);

    private RankBootstrap() {
    }

    /**
     * Connects to the launcher, then runs the application.
     *
     * @param args the application's main class, then its arguments
     * @throws Throwable whatever the application's {@code main} throws
     */
    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            fail("usage: RankBootstrap MAINCLASS [ARGS...]", null);
        }
        Method main = findMain(args[0]);
        connect();
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
            LauncherSubscriberProvider.flush();
        } catch (InvocationTargetException e) {
            LauncherSubscriberProvider.flush();
            if (e.getCause() instanceof io.ironloop.group.ProcessFailedException failed) {
                // An expected way for a rank to end (another rank died); the stack trace would only hide the message.
                System.err.println("ironloop: " + failed.getMessage());
                System.exit(1);
            }
            LauncherSubscriberProvider.link().ifPresent(link -> link.error(e.getCause()));
            throw e.getCause();
        }
    }

    private static void connect() {
        Optional<LaunchEnvironment> env;
        try {
            env = LaunchEnvironment.current();
        } catch (ConfigurationException e) {
            fail(e.getMessage(), e);
            return;
        }
        if (env.isEmpty()) {
            return;
        }
        LaunchEnvironment e = env.get();
        try {
            JobSecret secret = JobSecret.load(e.secretFile());
            LauncherConnection connection = LauncherConnection.open(e, secret, HANDSHAKE_TIMEOUT);
            connection.startWatchdog();
            LauncherSubscriberProvider.install(LauncherLink.over(connection));
        } catch (IOException | ConfigurationException ex) {
            fail("rank " + e.rank() + " cannot join the launcher at " + e.launcher().getHostString() + ":"
                    + e.launcher().getPort() + ": " + ex.getMessage(), null);
        }
    }

    private static Method findMain(String className) {
        try {
            Class<?> c = Class.forName(className, false, ClassLoader.getSystemClassLoader());
            Method m = c.getMethod("main", String[].class);
            if (!Modifier.isStatic(m.getModifiers())) {
                fail("main(String[]) of " + className + " is not static", null);
            }
            m.setAccessible(true);
            return m;
        } catch (ClassNotFoundException | LinkageError e) {
            fail("main class " + className + " cannot be loaded from the class path: " + e, null);
        } catch (NoSuchMethodException e) {
            fail(className + " has no public static void main(String[])", null);
        }
        throw new IllegalStateException("unreachable");
    }

    private static void fail(String message, Throwable cause) {
        System.err.println("ironloop: " + message);
        if (cause != null) {
            cause.printStackTrace();
        }
        System.err.flush();
        System.exit(EXIT_BOOTSTRAP_FAILED);
    }
}
