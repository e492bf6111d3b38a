/**
 * Ironloop's root package: the unchecked exception hierarchy rooted at {@link io.ironloop.IronloopException}.
 */
package io.ironloop;
