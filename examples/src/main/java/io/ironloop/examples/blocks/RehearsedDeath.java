package io.ironloop.examples.blocks;

import io.ironloop.runtime.event.RuntimeEvent;
import java.io.IOException;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * A rank that kills itself with a real {@code SIGKILL} at a chosen moment of the block loop, to rehearse
 * failures where an outside observer cannot aim: {@code --die-at WORLD_RANK:PHASE@N[+MS]}. The moment is the
 * loop's event of that phase, then {@code MS} milliseconds on a thread of its own while the loop goes on:
 * <ul>
 *   <li>{@code iteration@N} — iteration N starts (mid-iteration with a delay below the step's time);</li>
 *   <li>{@code snapshot@N} — the snapshot of iteration N is captured; its background copy to the partner starts
 *       now, so a few milliseconds later the rank dies mid-copy;</li>
 *   <li>{@code handshake@N} — the handshake of the snapshot of iteration N agreed; the rank dies while the
 *       levels commit;</li>
 *   <li>{@code recovery@N} — the N-th shrink this rank takes part in (1: the first recovery), mid-recovery.</li>
 * </ul>
 *
 * @param worldRank the rank that dies
 * @param phase one of {@code iteration}, {@code snapshot}, {@code handshake}, {@code recovery}
 * @param n the iteration, or for {@code recovery} the count of shrinks
 * @param delayMillis the delay after the event
 */
public record RehearsedDeath(int worldRank, String phase, long n, long delayMillis) {
    /** The syntax, for usage lines. */
    public static final String SYNTAX = "WORLD_RANK:iteration|snapshot|handshake|recovery@N[+MS]";

    public RehearsedDeath {
        if (!java.util.Set.of("iteration", "snapshot", "handshake", "recovery").contains(phase)) {
            throw new IllegalArgumentException("--die-at: unknown phase '" + phase + "' (" + SYNTAX + ")");
        }
        if (worldRank < 0 || n < 0 || delayMillis < 0) {
            throw new IllegalArgumentException("--die-at: rank, N and MS are not negative (" + SYNTAX + ")");
        }
    }

    /** Parses {@code text} ({@link #SYNTAX}). */
    public static RehearsedDeath parse(String text) {
        try {
            String[] rankRest = text.split(":", 2);
            String[] phaseRest = rankRest[1].split("@", 2);
            String[] nDelay = phaseRest[1].split("\\+", 2);
            return new RehearsedDeath(Integer.parseInt(rankRest[0].strip()), phaseRest[0].strip().toLowerCase(Locale.ROOT),
                    Long.parseLong(nDelay[0].strip()), nDelay.length > 1 ? Long.parseLong(nDelay[1].strip()) : 0);
        } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
            throw new IllegalArgumentException("--die-at '" + text + "' is not " + SYNTAX, e);
        }
    }

    /** A subscriber to the loop's events that kills this process at the moment, when {@code worldRank} is this rank's. */
    public Consumer<RuntimeEvent> watcher(IntSupplier thisWorldRank) {
        long[] shrinks = {0};
        boolean[] armed = {true};
        return e -> {
            if (!armed[0] || thisWorldRank.getAsInt() != worldRank) {
                return;
            }
            boolean now = switch (phase) {
                case "iteration" -> e instanceof RuntimeEvent.IterationStarted s && s.iteration() == n;
                case "snapshot" -> e instanceof RuntimeEvent.Snapshotted s && s.iteration() == n;
                case "handshake" -> e instanceof RuntimeEvent.Handshake h && h.iteration() == n;
                default -> e instanceof RuntimeEvent.GroupShrunk && ++shrinks[0] == n;
            };
            if (now) {
                armed[0] = false;
                Thread t = new Thread(this::die, "rehearsed-death");
                t.setDaemon(true);
                t.start();
            }
        };
    }

    private void die() {
        try {
            Thread.sleep(delayMillis);
            System.err.printf(Locale.ROOT, "rehearsed death: world rank %d kills itself (SIGKILL) at %s@%d+%d ms%n", worldRank, phase, n,
                    delayMillis);
            new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).inheritIO().start().waitFor();
            Thread.sleep(60_000); // SIGKILL arrives; never go on
        } catch (IOException e) {
            System.err.println("rehearsed death: cannot run kill: " + e.getMessage() + "; halting instead");
            Runtime.getRuntime().halt(137);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Runtime.getRuntime().halt(137);
        }
    }
}
