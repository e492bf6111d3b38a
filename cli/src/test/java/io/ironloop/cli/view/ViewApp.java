package io.ironloop.cli.view;

import io.ironloop.launcher.rank.LauncherLink;
import io.ironloop.launcher.rank.SaveReport;
import java.time.Duration;
import io.ironloop.launcher.rank.ThisRank;

/**
 * A rank for the view tests: declares {@code iterations} (argument 1, default 6), reports every iteration, a
 * {@code global} checkpoint every second iteration (that blocks it {@value #SAVE_MS} ms and holds {@value #SAVE_BYTES}
 * bytes), and after a restart {@code restored} from iteration 2; sleeps
 * {@code sleep-ms} (argument 2, default 150) per iteration.
 */
public final class ViewApp {
    static final long SAVE_MS = 20;
    static final long SAVE_BYTES = 4096;

    private ViewApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        long sleepMs = args.length > 1 ? Long.parseLong(args[1]) : 150;
        int attempt = Integer.parseInt(System.getenv().getOrDefault("IRONLOOP_ATTEMPT", "0"));
        LauncherLink link = ThisRank.link();
        link.plan(iterations);
        int first = 1;
        if (attempt > 0) {
            link.restored(2);
            first = 3;
        }
        for (int i = first; i <= iterations; i++) {
            link.iteration(i);
            Thread.sleep(sleepMs);
            if (i % 2 == 0) {
                long start = System.nanoTime();
                Thread.sleep(SAVE_MS); // the save's blocking part
                link.saved(SaveReport.of(i, "global", Duration.ofNanos(System.nanoTime() - start), SAVE_BYTES));
            }
        }
    }
}
