package io.ironloop.runtime.internal.trigger;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Ends the process with a status; tests replace it with one that records the status. */
@FunctionalInterface
public interface ProcessExit {

    /** How long shutdown hooks may run after a trigger's exit before the JVM is halted. */
    Duration SHUTDOWN_HOOK_LIMIT = Duration.ofSeconds(5);

    /**
     * Ends the process with {@code status}. The real implementation does not return.
     *
     * @param status the exit status
     */
    void exit(int status);

    /**
     * The real exit: {@link System#exit} so that shutdown hooks run, guarded by a daemon watchdog that
     * {@linkplain Runtime#halt halts} the JVM with the same status when the hooks have not finished after
     * {@code hookLimit} (a hook that blocks, or a shutdown already in progress on another thread, would
     * otherwise keep a preempted rank alive until the scheduler's {@code SIGKILL}). Call it from a thread
     * that no shutdown hook waits for.
     */
    static ProcessExit system(Duration hookLimit) {
        Logger log = LoggerFactory.getLogger(ProcessExit.class);
        return status -> {
            Thread watchdog = new Thread(() -> {
                try {
                    Thread.sleep(hookLimit.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                log.warn("shutdown hooks still running {} ms after the trigger's exit; halting with status {}", hookLimit.toMillis(), status);
                Runtime.getRuntime().halt(status);
            }, "ironloop-exit-watchdog");
            watchdog.setDaemon(true);
            watchdog.start();
            System.exit(status);
        };
    }
}
