package io.ironloop.device;

/**
 * What a kernel does with an array argument (HPL's input, output and input-output arguments). The intent
 * decides the transfers: an argument that is read is made current on the device first; one that is written
 * becomes current only on that device, so every other copy (the host's included) is invalidated.
 */
public enum Intent {
    /** The kernel only reads the array. */
    READ,
    /** The kernel overwrites every element without reading any: nothing is transferred to the device. */
    WRITE,
    /** The kernel reads and writes the array. */
    READ_WRITE;

    /** Whether the kernel reads the array's current contents. */
    public boolean reads() {
        return this != WRITE;
    }

    /** Whether the kernel changes the array. */
    public boolean writes() {
        return this != READ;
    }
}
