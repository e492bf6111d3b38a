/** A single-process example of the checkpoint engine: 1-D heat diffusion that survives kill -9. */
package io.ironloop.examples.heat;
