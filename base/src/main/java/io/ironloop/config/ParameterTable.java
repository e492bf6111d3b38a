package io.ironloop.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The set of keys a program accepts, in documentation order. It is the single source for the
 * parameter-file parser, environment overrides, {@code --help} and the README's configuration table.
 */
public final class ParameterTable {
    private final Map<String, ParameterKey<?>> keys;

    private ParameterTable(Map<String, ParameterKey<?>> keys) {
        this.keys = Collections.unmodifiableMap(keys);
    }

    /**
     * Joins the key lists of several layers.
     *
     * @throws IllegalArgumentException if two keys share a name, or a section field has no section key
     */
    @SafeVarargs
    public static ParameterTable of(Collection<? extends ParameterKey<?>>... groups) {
        Map<String, ParameterKey<?>> keys = new LinkedHashMap<>();
        for (Collection<? extends ParameterKey<?>> group : groups) {
            for (ParameterKey<?> k : group) {
                if (keys.putIfAbsent(k.name(), k) != null) {
                    throw new IllegalArgumentException("parameter " + k.name() + " is declared twice");
                }
            }
        }
        for (ParameterKey<?> k : keys.values()) {
            String section = k.section();
            if (section != null && (!keys.containsKey(section) || keys.get(section).type() != ValueType.OBJECT)) {
                throw new IllegalArgumentException("parameter " + k.name() + " needs a section key " + section);
            }
        }
        return new ParameterTable(keys);
    }

    /** The key with this name, or null. */
    public ParameterKey<?> find(String name) {
        return keys.get(name);
    }

    /**
     * The known name closest to a misspelt one (case-insensitive edit distance, at most a third of the
     * name's length and never more than 3), for a "did you mean" hint; empty when nothing is close.
     */
    public java.util.Optional<String> closest(String name) {
        String wanted = name.toUpperCase(java.util.Locale.ROOT);
        int limit = Math.min(3, Math.max(1, wanted.length() / 3));
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String known : keys.keySet()) {
            int d = editDistance(wanted, known.toUpperCase(java.util.Locale.ROOT));
            if (d < bestDistance) {
                best = known;
                bestDistance = d;
            }
        }
        return bestDistance <= limit ? java.util.Optional.of(best) : java.util.Optional.empty();
    }

    /** Levenshtein distance with adjacent transpositions counted as one edit. */
    private static int editDistance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    public List<ParameterKey<?>> keys() {
        return List.copyOf(keys.values());
    }

    /** The configuration table as GitHub Markdown: name, type, unit, default, meaning. */
    public String markdown() {
        StringBuilder b = new StringBuilder();
        b.append("| key | type | unit | default | meaning |\n");
        b.append("|---|---|---|---|---|\n");
        for (ParameterKey<?> k : keys.values()) {
            b.append("| `").append(k.name()).append("` | ").append(k.type().label()).append(" | ")
                    .append(k.unit().isEmpty() ? "" : "`" + k.unit().replace("|", "\\|") + "`").append(" | `").append(k.defaultText()).append("` | ")
                    .append(k.meaning().replace("|", "\\|")).append(" |\n");
        }
        return b.toString();
    }

    /** The table as plain text lines for {@code --help}. */
    public List<String> helpLines() {
        List<String> lines = new ArrayList<>();
        for (ParameterKey<?> k : keys.values()) {
            String unit = k.unit().isEmpty() ? "" : " [" + k.unit() + "]";
            lines.add(String.format("  %-46s %s%s, default %s", k.name(), k.type().label(), unit, k.defaultText()));
            lines.add("      " + k.meaning());
        }
        return lines;
    }
}
