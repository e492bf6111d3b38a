/**
 * The protectors' wire ({@link io.ironloop.sites.internal.ProtectorWire}), the stores they serve and reach over it
 * ({@link io.ironloop.sites.internal.StoreService}, {@link io.ironloop.sites.internal.ProtectorStore}), and the ranks'
 * notices of committed lines to their site's protector ({@link io.ironloop.sites.internal.LineNotices}, a service of the
 * runtime). Not exported.
 */
package io.ironloop.sites.internal;
