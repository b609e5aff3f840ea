#pragma once

namespace hydra {

// A TCP port on the loopback interface that nothing listens on now (the kernel's choice), for a
// rendezvous of local ranks (hydra train --nproc, hydra check, tests). A hydra::Error when the
// machine has none.
int free_local_port();

}  // namespace hydra
