/**
 * The JGroups transport and its protocol stack: who may found the cluster ({@code FormationGate}), the
 * STAR/RING heartbeat protocol, the wire counter of heartbeats, the job-secret connection handshake and
 * AUTH token, and the direct data connections that carry point-to-point and collective messages beside
 * the JGroups channel ({@code DataPlane}). See {@code docs/group.md}.
 */
package io.ironloop.group.internal.jgroups;
