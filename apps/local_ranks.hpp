#pragma once

// hydra train --nproc N (docs/DISTRIBUTED.md): this very command started N times on this
// machine, as torchrun --nproc-per-node N would start it: each copy gets RANK, WORLD_SIZE,
// LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR=127.0.0.1 and one free MASTER_PORT, and the
// command line without --nproc. The launcher waits for every rank, forwards SIGINT and SIGTERM
// to them, and returns 0 when all succeeded, else the status of the first rank that failed
// (each failure named on stderr). A rank still running 30 s after another failed (stopped, or hung
// outside a collective) is killed with SIGKILL, named on stderr, so the launcher always ends. Refused (a hydra::Error) inside a rank that torchrun or srun
// started: there the launcher is theirs.

namespace hydra::apps {

int run_local_ranks(int nproc);

}  // namespace hydra::apps
