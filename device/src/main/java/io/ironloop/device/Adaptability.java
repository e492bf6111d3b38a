package io.ironloop.device;

/**
 * How an application adapts to another number of devices on restart (the paper's Section 4.3), as told by what
 * it registered with its {@link DeviceSession}.
 */
public enum Adaptability {
    /**
     * Only unified host images are registered: the data can be split over any number of devices, so a restart
     * re-splits it over the devices it finds (the paper's Fig. 6).
     */
    MALLEABLE,
    /**
     * The application registered a distribution over a number of devices
     * ({@link DeviceSession#preserveDistribution}): a restart keeps that many virtual devices and maps them onto
     * the physical ones, several per device when there are fewer, leaving some idle when there are more (Fig. 5).
     */
    PSEUDO_MALLEABLE
}
