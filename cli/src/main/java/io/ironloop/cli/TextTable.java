package io.ironloop.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table: columns padded to their widest cell, two spaces apart, header first. */
final class TextTable {
    private final List<String[]> rows = new ArrayList<>();
    private final int columns;

    TextTable(String... header) {
        this.columns = header.length;
        rows.add(header);
    }

    /** Adds a row; {@code null} cells print as "-". */
    TextTable row(Object... cells) {
        if (cells.length != columns) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, table has " + columns + " columns");
        }
        String[] r = new String[columns];
        for (int i = 0; i < columns; i++) {
            r[i] = cells[i] == null ? "-" : cells[i].toString();
        }
        rows.add(r);
        return this;
    }

    void print(PrintWriter out) {
        int[] width = new int[columns];
        for (String[] r : rows) {
            for (int i = 0; i < columns; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                line.append(r[i]);
                if (i < columns - 1) {
                    line.append(" ".repeat(width[i] - r[i].length() + 2));
                }
            }
            out.println(line);
        }
    }
}
