package io.ironloop.sites;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The events protectors report to a test ({@link #add} is their listener), and waiting for one: every event taken from
 * the queue stays in {@link #seen}, so a later wait finds one that came while the test waited for another.
 */
final class SiteEventLog {
    private final LinkedBlockingQueue<SiteEvent> queue = new LinkedBlockingQueue<>();
    private final List<SiteEvent> seen = new ArrayList<>();

    /** The protectors' listener; any thread. */
    void add(SiteEvent e) {
        queue.add(e);
    }

    /** Finds an event among those seen or waits for it. */
    SiteEvent await(Predicate<SiteEvent> what, Duration within) throws InterruptedException {
        return await(what, within, 0);
    }

    /** Waits for an event, or finds it among those seen from index {@code since} on. */
    SiteEvent await(Predicate<SiteEvent> what, Duration within, int since) throws InterruptedException {
        for (SiteEvent e : seen.subList(since, seen.size())) {
            if (what.test(e)) {
                return e;
            }
        }
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            SiteEvent e = queue.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e != null) {
                seen.add(e);
                if (what.test(e)) {
                    return e;
                }
            }
        }
        throw new AssertionError("no such event within " + within + "; saw " + seen);
    }

    /** Takes every event that comes within {@code d} into those seen. */
    void watch(Duration d) throws InterruptedException {
        long deadline = System.nanoTime() + d.toNanos();
        for (long left = d.toNanos(); left > 0; left = deadline - System.nanoTime()) {
            SiteEvent e = queue.poll(left, TimeUnit.NANOSECONDS);
            if (e != null) {
                seen.add(e);
            }
        }
    }

    /** How many events were seen so far: an index for {@link #await(Predicate, Duration, int)}. */
    int size() {
        return seen.size();
    }

    /** Every event so far, those still queued included. */
    List<SiteEvent> seen() {
        queue.drainTo(seen);
        return seen;
    }
}
