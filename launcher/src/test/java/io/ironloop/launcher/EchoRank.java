package io.ironloop.launcher;

import io.ironloop.group.launch.LaunchEnvironment;
import java.io.IOException;

/**
 * A rank for {@link UnsupervisedRanksTest}: prints what it got from its launcher (rank, size and secret file from the
 * environment, rank and job from its command line) on standard output and a line on standard error, then waits until its
 * standard input closes.
 */
public final class EchoRank {
    private EchoRank() {
    }

    public static void main(String[] args) throws IOException {
        System.out.println("RANK " + System.getenv(LaunchEnvironment.RANK) + " " + System.getenv(LaunchEnvironment.SIZE) + " "
                + System.getProperty(LaunchEnvironment.RANK_PROPERTY) + " " + System.getProperty(LaunchEnvironment.JOB_PROPERTY) + " "
                + System.getenv(LaunchEnvironment.SECRET_FILE) + " " + String.join(",", args));
        System.err.println("rank " + System.getenv(LaunchEnvironment.RANK) + " says hello on stderr");
        System.out.flush();
        while (System.in.read() >= 0) {
            // until the launcher closes it
        }
    }
}
