package io.ironloop.group;

/** How the members of a job find each other. Multicast discovery is never used. */
public enum DiscoveryMode {
    /** From the environment: a static peer list when one is given, else a shared directory, else DNS. */
    AUTO,
    /** A static list of host:port peers (the Ironloop launcher's {@code IRONLOOP_PEERS}, or Slurm's node list); JGroups TCPPING. */
    STATIC,
    /** A directory on a shared file system where every member writes its address; JGroups FILE_PING. */
    FILE,
    /** DNS A records of a (Kubernetes headless) service name; JGroups DNS_PING. */
    DNS
}
