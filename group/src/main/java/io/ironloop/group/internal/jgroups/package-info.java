/**
 * The JGroups transport and its protocol stack: the STAR/RING heartbeat protocol, the wire counter of
 * heartbeats, the job-secret connection handshake and AUTH token. See {@code docs/group.md}.
 */
package io.ironloop.group.internal.jgroups;
