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
