package io.ironloop.benchmarks;

import java.io.IOException;
import java.io.InputStream;

/**
 * The main method of a rank JVM a benchmark starts: it runs the rank's work and exits 0, exits 1 with the stack trace
 * if the work throws, and halts (3) as soon as the benchmark is gone. The benchmark holds the child's standard input
 * open and never writes to it, so end of input means the parent died; JGroups' threads are not daemons, so without the
 * halts a rank whose bench was killed would linger.
 */
public final class ChildMain {
    /** The rank's work. */
    @FunctionalInterface
    public interface Work {
        void run(String[] args) throws Exception;
    }

    private ChildMain() {
    }

    /** Runs {@code work} with {@code args} as described above; never returns. */
    public static void run(String[] args, Work work) {
        Thread watchdog = new Thread(ChildMain::haltWhenParentGoes, "parent-watch");
        watchdog.setDaemon(true);
        watchdog.start();
        try {
            work.run(args);
            System.out.flush();
            System.exit(0);
        } catch (Throwable t) {
            t.printStackTrace();
            System.out.flush();
            Runtime.getRuntime().halt(1);
        }
    }

    private static void haltWhenParentGoes() {
        try {
            InputStream in = System.in;
            while (in.read() >= 0) {
                // nothing is sent; wait for end of input
            }
        } catch (IOException e) {
            // treated as end of input
        }
        Runtime.getRuntime().halt(3);
    }
}
