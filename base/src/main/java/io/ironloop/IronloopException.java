package io.ironloop;

/**
 * The root of every exception Ironloop throws on purpose. Programming errors (a null argument, a call
 * in the wrong state) use the JDK's {@link IllegalArgumentException}, {@link IllegalStateException} and
 * {@link NullPointerException} instead.
 */
public class IronloopException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public IronloopException(String message) {
        super(message);
    }

    public IronloopException(String message, Throwable cause) {
        super(message, cause);
    }
}
