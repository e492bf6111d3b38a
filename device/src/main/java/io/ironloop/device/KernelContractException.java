package io.ironloop.device;

/**
 * A kernel broke the intents it declared, caught in checked mode ({@link DeviceOptions#checked()}): it wrote an
 * array declared {@link Intent#READ}, left elements of a {@link Intent#WRITE} array unwritten, changed nothing
 * in an array declared written, or reached an array it did not declare. A programming error in the kernel or
 * its launch: fix the intents, or the kernel.
 */
public class KernelContractException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public KernelContractException(String message) {
        super(message);
    }
}
