package io.ironloop.format.internal;

/**
 * The rule for the store-relative file names that differential references carry. A name is relative to
 * the store's root and can never leave it: 1 to {@link Layout#MAX_NAME_CHARS} characters, segments
 * separated by {@code /}, no empty, {@code .} or {@code ..} segment, no leading {@code /}, no
 * backslash, colon or control character. So {@code job/line-00000042/rank-0003.ilc} is valid and
 * {@code /etc/passwd}, {@code ../x}, {@code a//b} and {@code C:x} are not.
 */
public final class StoreNames {
    private StoreNames() {
    }

    /** Why {@code name} is not a valid store-relative name, or null when it is. */
    public static String problem(String name) {
        if (name == null || name.isEmpty()) {
            return "empty file name";
        }
        if (name.length() > Layout.MAX_NAME_CHARS) {
            return "file name longer than " + Layout.MAX_NAME_CHARS + " characters";
        }
        int segmentStart = 0;
        for (int i = 0; i <= name.length(); i++) {
            char c = i < name.length() ? name.charAt(i) : '/';
            if (c == '/') {
                String segment = name.substring(segmentStart, i);
                if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                    return "file name '" + printable(name) + "' has an empty, '.' or '..' segment (or starts with '/')";
                }
                segmentStart = i + 1;
            } else if (c < 0x20 || c == 0x7F || c == '\\' || c == ':') {
                return "file name '" + printable(name) + "' contains a control character, '\\' or ':'";
            }
        }
        return null;
    }

    /** {@code name} with control characters escaped, for messages. */
    static String printable(String name) {
        StringBuilder s = new StringBuilder(name.length());
        name.chars().limit(200).forEach(c -> s.append(c < 0x20 || c == 0x7F ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return name.length() > 200 ? s + "..." : s.toString();
    }
}
