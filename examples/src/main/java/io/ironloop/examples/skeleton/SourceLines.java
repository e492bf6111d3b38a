package io.ironloop.examples.skeleton;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Logical lines of Java source, the measure the paper compares programs by: lines that hold code once blank lines,
 * {@code //} comments and {@code /* … *}{@code /} comments (javadoc included) are taken away. Comment markers inside
 * string literals are not recognised (none of the measured files has one).
 */
public final class SourceLines {
    private SourceLines() {
    }

    /** The number of code lines of {@code file}. */
    public static long count(Path file) throws IOException {
        long n = 0;
        boolean inComment = false;
        for (String line : Files.readAllLines(file)) {
            StringBuilder code = new StringBuilder();
            int i = 0;
            while (i < line.length()) {
                if (inComment) {
                    int end = line.indexOf("*/", i);
                    if (end < 0) {
                        i = line.length();
                    } else {
                        inComment = false;
                        i = end + 2;
                    }
                } else if (line.startsWith("/*", i)) {
                    inComment = true;
                    i += 2;
                } else if (line.startsWith("//", i)) {
                    i = line.length();
                } else {
                    code.append(line.charAt(i++));
                }
            }
            if (!code.toString().isBlank()) {
                n++;
            }
        }
        return n;
    }
}
