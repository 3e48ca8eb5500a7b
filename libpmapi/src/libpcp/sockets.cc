// sockets.cc: libpcp's internal socket calls, which PCP's companion
// libraries use to reach their own servers (libpcp_gui reaches pmtime).
// __pmSockAddr has libpcp's layout: callers allocate it with
// __pmSockAddrAlloc but pass __pmSockAddrSize() to __pmConnect.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/select.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "pcp_internal.h"

struct __pmSockAddr {
  union {
    struct sockaddr raw;
    struct sockaddr_in inet;
    struct sockaddr_in6 ipv6;
    struct sockaddr_un local;
  } sockaddr;
};

namespace {

// Waits up to five seconds for a connect() in progress: 0 or an errno.
int FinishConnect(int fd) {
  fd_set writable;
  FD_ZERO(&writable);
  FD_SET(fd, &writable);
  struct timeval wait = {5, 0};
  int n = select(fd + 1, nullptr, &writable, nullptr, &wait);
  if (n == 0) return ETIMEDOUT;
  if (n < 0) return errno;
  int err = 0;
  socklen_t len = sizeof err;
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) return errno;
  return err;
}

socklen_t AddressLength(const __pmSockAddr* a) {
  switch (a->sockaddr.raw.sa_family) {
    case AF_INET: return sizeof a->sockaddr.inet;
    case AF_INET6: return sizeof a->sockaddr.ipv6;
    case AF_UNIX: return sizeof a->sockaddr.local;
    default: return 0;
  }
}

}  // namespace

extern "C" {

// A TCP socket over IPv4 that does not linger on close and sends at once.
int __pmCreateSocket(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -errno;
  struct linger no_linger = {1, 0};
  if (setsockopt(fd, SOL_SOCKET, SO_LINGER, &no_linger, sizeof no_linger) < 0) {
    pmNotifyErr(LOG_WARNING, "__pmCreateSocket(fd=%d): SO_LINGER: %s\n", fd, std::strerror(errno));
  }
  int nodelay = 1;
  if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &nodelay, sizeof nodelay) < 0) {
    pmNotifyErr(LOG_WARNING, "__pmCreateSocket(fd=%d): TCP_NODELAY: %s\n", fd, std::strerror(errno));
  }
  return fd;
}

void __pmCloseSocket(int fd) {
  if (fd >= 0) close(fd);
}

// connect(2) to a __pmSockAddr, waiting a little for one in progress:
// 0, or -1 with errno set.
int __pmConnect(int fd, void* addr, socklen_t) {
  const auto* a = static_cast<const __pmSockAddr*>(addr);
  socklen_t length = AddressLength(a);
  if (length == 0) {
    pmNotifyErr(LOG_ERR, "__pmConnect: Invalid address family: %d\n", a->sockaddr.raw.sa_family);
    errno = EAFNOSUPPORT;
    return -1;
  }
  if (connect(fd, &a->sockaddr.raw, length) == 0) return 0;
  int err = errno == EINPROGRESS ? FinishConnect(fd) : errno;
  if (err == 0) return 0;
  errno = err;
  return -1;
}

ssize_t __pmSend(int fd, const void* buf, size_t len, int flags) {
  if (fd < 0) return -EBADF;
  return send(fd, buf, len, flags);
}

ssize_t __pmRecv(int fd, void* buf, size_t len, int flags) {
  if (fd < 0) return -EBADF;
  return recv(fd, buf, len, flags);
}

__pmSockAddr* __pmSockAddrAlloc(void) { return static_cast<__pmSockAddr*>(std::calloc(1, sizeof(__pmSockAddr))); }

void __pmSockAddrFree(__pmSockAddr* addr) { std::free(addr); }

size_t __pmSockAddrSize(void) { return sizeof(__pmSockAddr); }

// An IPv4 or IPv6 address: `address` is INADDR_ANY or INADDR_LOOPBACK in
// host order, `port` in host order. AF_UNSPEC leaves it zeroed.
void __pmSockAddrInit(__pmSockAddr* addr, int family, int address, int port) {
  std::memset(addr, 0, sizeof *addr);
  if (family == AF_INET) {
    addr->sockaddr.inet.sin_family = AF_INET;
    addr->sockaddr.inet.sin_addr.s_addr = htonl(static_cast<uint32_t>(address));
    addr->sockaddr.inet.sin_port = htons(static_cast<uint16_t>(port));
  } else if (family == AF_INET6) {
    addr->sockaddr.ipv6.sin6_family = AF_INET6;
    addr->sockaddr.ipv6.sin6_port = htons(static_cast<uint16_t>(port));
    addr->sockaddr.ipv6.sin6_addr = address == INADDR_LOOPBACK ? in6addr_loopback : in6addr_any;
  } else if (family != AF_UNSPEC) {
    pmNotifyErr(LOG_ERR, "__pmSockAddrInit: Invalid address family: %d\n", family);
  }
}

// Ignores SIGPIPE, once, unless the program has a handler of its own.
void __pmIgnoreSignalPIPE(void) {
  static std::once_flag once;
  std::call_once(once, [] {
    void (*previous)(int) = std::signal(SIGPIPE, SIG_IGN);
    if (previous != SIG_DFL) std::signal(SIGPIPE, previous);
  });
}

}  // extern "C"
