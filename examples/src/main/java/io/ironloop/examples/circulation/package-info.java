/**
 * A matrix power by data circulation, twice: on the loop skeleton ({@link
 * io.ironloop.examples.circulation.MatrixPowerSkeleton}, {@code RoutingPlan.Kind.CIRCULATION}) and hand-written on a
 * block loop ({@link io.ironloop.examples.circulation.MatrixPowerBlocks}); both print the same {@code result sha256=}.
 */
package io.ironloop.examples.circulation;
