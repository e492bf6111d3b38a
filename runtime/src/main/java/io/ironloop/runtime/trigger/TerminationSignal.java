package io.ironloop.runtime.trigger;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The POSIX signals a scheduler or an operator sends to end a job, which Ironloop can turn into a save.
 *
 * <p>The exit status after such a save is {@code 128 +} the signal's number, as a shell reports a process
 * killed by that signal. The numbers below are Linux's; {@link #linuxNumber()} is only used when the JVM
 * cannot tell the platform's own number.
 */
public enum TerminationSignal {
    /** {@code SIGTERM} (15): Slurm at the time limit and on {@code scancel}, Kubernetes on pod deletion, {@code kill}. */
    TERM(15),
    /** {@code SIGINT} (2): Ctrl-C in a terminal. */
    INT(2),
    /** {@code SIGUSR1} (10 on Linux): sent ahead of the time limit by Slurm's {@code --signal=USR1@120}. */
    USR1(10),
    /** {@code SIGUSR2} (12 on Linux): an alternative warning signal some sites configure. */
    USR2(12);

    private final int linuxNumber;

    TerminationSignal(int linuxNumber) {
        this.linuxNumber = linuxNumber;
    }

    /** The signal's number on Linux. */
    public int linuxNumber() {
        return linuxNumber;
    }

    /** The conventional exit status for a process ended by this signal on Linux: {@code 128 + number}. */
    public int linuxExitStatus() {
        return 128 + linuxNumber;
    }

    /**
     * Parses a comma-separated list such as {@code TERM,INT,USR1}; names may carry a {@code SIG} prefix and
     * any case.
     *
     * @throws IllegalArgumentException for an empty list, an unknown name or a repeated one
     */
    public static Set<TerminationSignal> parseList(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("the signal list is empty: name at least one of TERM, INT, USR1, USR2");
        }
        Set<TerminationSignal> result = EnumSet.noneOf(TerminationSignal.class);
        for (String part : text.split(",")) {
            TerminationSignal s = parse(part);
            if (!result.add(s)) {
                throw new IllegalArgumentException("signal " + s + " is listed twice in '" + text + "'");
            }
        }
        return result;
    }

    /**
     * Parses one signal name ({@code TERM}, {@code SIGTERM}, {@code usr1}).
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static TerminationSignal parse(String name) {
        String n = name.trim().toUpperCase(Locale.ROOT);
        if (n.startsWith("SIG")) {
            n = n.substring(3);
        }
        for (TerminationSignal s : values()) {
            if (s.name().equals(n)) {
                return s;
            }
        }
        throw new IllegalArgumentException("'" + name.trim() + "' is not a termination signal Ironloop handles: use TERM, INT, USR1 or USR2");
    }

    /** Formats signals as {@code TERM,INT}, the form {@link #parseList} reads. */
    public static String format(Set<TerminationSignal> signals) {
        List<String> names = new ArrayList<>();
        for (TerminationSignal s : signals) {
            names.add(s.name());
        }
        return String.join(",", names);
    }
}
