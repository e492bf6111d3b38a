package io.ironloop;

/**
 * A parameter file, environment variable or command-line option is unknown or has a bad value. The
 * message names the key, the value, where it came from and what is expected.
 */
public class ConfigurationException extends IronloopException {
    private static final long serialVersionUID = 1L;

    public ConfigurationException(String message) {
        super(message);
    }

    public ConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
