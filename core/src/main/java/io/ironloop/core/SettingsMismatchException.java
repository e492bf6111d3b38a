package io.ironloop.core;

import io.ironloop.IronloopException;

/**
 * The newest complete checkpoint was made under different application settings than the ones registered
 * now. Callers such as the DeLIA API turn this into "cannot recover, start fresh"; old lines are kept.
 */
public class SettingsMismatchException extends IronloopException {
    private static final long serialVersionUID = 1L;
    private final String current;
    private final String saved;

    public SettingsMismatchException(String where, String current, String saved) {
        super("the checkpoint " + where + " was made under other settings (saved fingerprint " + saved
                + ", current " + current + "): start fresh, restore with the original settings, or set IGNORE_SETTINGS=true");
        this.current = current;
        this.saved = saved;
    }

    /** Fingerprint of the settings registered now. */
    public String currentFingerprint() {
        return current;
    }

    /** Fingerprint recorded in the checkpoint. */
    public String savedFingerprint() {
        return saved;
    }
}
