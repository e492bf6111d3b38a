package io.ironloop.sites;

import java.util.List;
import java.util.NoSuchElementException;

/**
 * The change that made a {@link Topology} from the table before it (version − 1): what lets two tables made at the same
 * time from the same table — a controller failover of one site and the recovery of another, both of version v+1 — be
 * merged into one that keeps both changes ({@link Topology#merge}). On the wire it is the line
 * {@code change KIND ARG...} of the table's text (tab-separated); a table at start has none ({@link #NONE}).
 *
 * @param kind what was done: {@code replace}, {@code failover}, {@code nodeLost}, {@code withoutSpare}, or empty
 * @param args its arguments, as the method that made it took them, and what it must find to be made again:
 *     {@code replace} the lost site and where its ranks went (the site checkpoint was placed there), {@code failover}
 *     the site, its lost controller, the new controller and its address
 */
record TableChange(String kind, List<String> args) {
    /** No change: a table as built at start. */
    static final TableChange NONE = new TableChange("", List.of());
    /** The line prefix of the change in a table's text. */
    static final String LINE = "change\t";

    TableChange {
        args = List.copyOf(args);
    }

    static TableChange of(String kind, String... args) {
        return new TableChange(kind, List.of(args));
    }

    /** The change's line in a table's text, without its line feed; empty for {@link #NONE}. */
    String encode() {
        return kind.isEmpty() ? "" : LINE + kind + (args.isEmpty() ? "" : "\t" + String.join("\t", args));
    }

    /** Reads a line {@link #encode} wrote. */
    static TableChange parse(String line) {
        String[] f = line.substring(LINE.length()).split("\t");
        return new TableChange(f[0], List.of(f).subList(1, f.length));
    }

    /**
     * Makes this change again on {@code table}: the table a protector would have made had it made its change after the
     * other one.
     *
     * @throws IllegalArgumentException if the change does not apply there (a conflict: the other change took the same
     *     node, site or spare); also {@link NoSuchElementException} or {@link IllegalStateException} from the change
     */
    Topology applyTo(Topology table) {
        return switch (kind) {
            case "replace" -> {
                Topology.Move move = table.replace(args.get(0));
                if (!move.target().equals(args.get(1))) {
                    throw new IllegalArgumentException("site " + args.get(0) + "'s ranks went to " + args.get(1) + ", which that table"
                            + " would not give them (it would give " + move.target() + ")");
                }
                yield move.after();
            }
            case "failover" -> {
                if (!table.site(args.get(0)).controller().equals(args.get(1))) {
                    throw new IllegalArgumentException("site " + args.get(0) + "'s controller is no longer " + args.get(1)
                            + ": another node took its cluster protector's role");
                }
                yield table.failover(args.get(0), args.get(2), args.get(3));
            }
            case "nodeLost" -> table.nodeLost(args.get(0), args.get(1));
            case "withoutSpare" -> table.withoutSpare(args.get(0));
            default -> throw new IllegalArgumentException("no change to make again ('" + kind + "')");
        };
    }

    /** Orders changes for {@link Topology#merge}: by kind, then arguments. */
    int compareTo(TableChange o) {
        return encode().compareTo(o.encode());
    }
}
