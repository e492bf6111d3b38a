package io.ironloop.group.internal;

import java.util.ArrayList;
import java.util.List;

/** Expands Slurm host lists ({@code node[01-03,07],gpu5}) and task counts ({@code 2(x3),1}). */
public final class SlurmHostlist {
    private SlurmHostlist() {
    }

    /**
     * Expands a host list into host names, in order.
     *
     * @throws IllegalArgumentException if brackets do not match or a range is malformed
     */
    public static List<String> expand(String hostlist) {
        List<String> out = new ArrayList<>();
        for (String item : splitTopLevel(hostlist)) {
            int open = item.indexOf('[');
            if (open < 0) {
                out.add(item);
                continue;
            }
            int close = item.indexOf(']', open);
            if (close < 0) {
                throw new IllegalArgumentException("unmatched '[' in Slurm host list '" + hostlist + "'");
            }
            String prefix = item.substring(0, open);
            String suffix = item.substring(close + 1);
            for (String part : item.substring(open + 1, close).split(",")) {
                String[] range = part.split("-", 2);
                try {
                    int lo = Integer.parseInt(range[0]);
                    int hi = range.length == 2 ? Integer.parseInt(range[1]) : lo;
                    int width = range[0].length();
                    for (int i = lo; i <= hi; i++) {
                        String n = String.valueOf(i);
                        out.add(prefix + "0".repeat(Math.max(0, width - n.length())) + n + suffix);
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("bad range '" + part + "' in Slurm host list '" + hostlist + "'", e);
                }
            }
        }
        return out;
    }

    /** The largest number of tasks on one node in {@code SLURM_TASKS_PER_NODE} ({@code 2(x3),1} → 2), or {@code fallback}. */
    public static int maxTasksPerNode(String tasksPerNode, int fallback) {
        int max = 0;
        for (String item : tasksPerNode.split(",")) {
            String n = item.contains("(") ? item.substring(0, item.indexOf('(')) : item;
            if (!n.isBlank()) {
                try {
                    max = Math.max(max, Integer.parseInt(n.trim()));
                } catch (NumberFormatException e) {
                    return fallback;
                }
            }
        }
        return max == 0 ? fallback : max;
    }

    private static List<String> splitTopLevel(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                if (i > start) {
                    out.add(s.substring(start, i).trim());
                }
                start = i + 1;
            }
        }
        if (start < s.length()) {
            out.add(s.substring(start).trim());
        }
        return out;
    }
}
