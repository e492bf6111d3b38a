package io.ironloop.runtime.trigger;

/** A cloud whose instance metadata service announces the reclamation of preemptible instances. */
public enum CloudProvider {
    /** Amazon EC2 spot instances. */
    AWS,
    /** Google Compute Engine preemptible and spot VMs. */
    GCE,
    /** Azure spot VMs and scale sets. */
    AZURE
}
