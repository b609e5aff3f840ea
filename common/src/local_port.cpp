#include "hydra/common/local_port.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hydra/common/error.hpp"

namespace hydra {

int free_local_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw Error("distributed: no socket for a local rendezvous port");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
  ::close(fd);
  if (!ok) throw Error("distributed: no free local port for a rendezvous");
  return ntohs(addr.sin_port);
}

}  // namespace hydra
