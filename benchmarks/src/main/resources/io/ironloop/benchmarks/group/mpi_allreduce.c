/*
 * The reference for `bench group`'s allreduce_bandwidth_s: MPI_Allreduce (MPI_SUM) of BYTES bytes of doubles
 * (argument 1, default 64 MiB), the same size and element type. One warm-up, then REPETITIONS timed rounds
 * (argument 2, default 5, at most 64), each the slowest rank's time (an MPI_MAX of the per-rank times); rank 0
 * prints one JSON object with the median. `bench group` compiles and runs it when mpicc and mpirun are installed.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_REPETITIONS 64

static int compare(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 10) : (size_t) 64 * 1024 * 1024;
    int repetitions = argc > 2 ? atoi(argv[2]) : 5;
    if (repetitions < 1 || repetitions > MAX_REPETITIONS) {
        repetitions = 5;
    }
    size_t n = bytes / sizeof(double);
    double *in = malloc(n * sizeof(double));
    double *out = malloc(n * sizeof(double));
    for (size_t i = 0; i < n; i++) {
        in[i] = (double) (i % 1000) * (rank + 1);
        out[i] = 0;
    }
    double times[MAX_REPETITIONS];
    for (int r = -1; r < repetitions; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        MPI_Allreduce(in, out, (int) n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double mine = MPI_Wtime() - start, slowest;
        MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (r >= 0) {
            times[r] = slowest;
        }
    }
    if (rank == 0) {
        qsort(times, repetitions, sizeof(double), compare);
        double median = times[repetitions / 2];
        printf("{\"ranks\": %d, \"bytes\": %zu, \"repetitions\": %d, \"mpi_allreduce_s\": %.6f, \"mpi_allreduce_gbps\": %.6f,"
               " \"min_s\": %.6f, \"max_s\": %.6f}\n", size, n * sizeof(double), repetitions, median,
               n * sizeof(double) / median / 1e9, times[0], times[repetitions - 1]);
    }
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
