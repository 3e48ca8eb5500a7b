// sockets.cc: libpcp's internal socket calls, which PCP's companion
// libraries use to reach their own servers (libpcp_gui reaches pmtime).
// __pmSockAddr has libpcp's layout: callers allocate it with
// __pmSockAddrAlloc but pass __pmSockAddrSize() to __pmConnect.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/select.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "host_connection.h"
#include "pcp_internal.h"

struct __pmSockAddr {
  union {
    struct sockaddr raw;
    struct sockaddr_in inet;
    struct sockaddr_in6 ipv6;
    struct sockaddr_un local;
  } sockaddr;
};

// A host's addresses from getaddrinfo, and its name once asked for.
struct __pmHostEnt {
  char* name;
  struct addrinfo* addresses;
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

// Sockets made here carry no TLS session, so these are read and write.
ssize_t __pmRead(int fd, void* buf, size_t len) {
  if (fd < 0) return -EBADF;
  return read(fd, buf, len);
}

ssize_t __pmWrite(int fd, const void* buf, size_t len) { return write(fd, buf, len); }

// Whether the last error (errno) means the peer has gone: the connection
// was reset, refused or timed out, the pipe broke, or the network or host
// is unreachable or down.
int __pmSocketClosed(void) {
  switch (errno) {
    case ECONNRESET:
    case EPIPE:
    case ETIMEDOUT:
    case ENETDOWN:
    case ENETUNREACH:
    case EHOSTDOWN:
    case EHOSTUNREACH:
    case ECONNREFUSED:
      return 1;
    default:
      return 0;
  }
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

// An IPv6 TCP socket that takes IPv6 connections only; -EOPNOTSUPP where
// the kernel has IPv6 turned off.
int __pmCreateIPv6Socket(void) {
  int fd = socket(AF_INET6, SOCK_STREAM, 0);
  if (fd < 0) return -errno;
  int on = 1;
  (void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
  on = 0;
  socklen_t len = sizeof on;
  if (getsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, &len) < 0 || on != 1) {
    pmNotifyErr(LOG_ERR, "__pmCreateIPv6Socket: IPV6 is not supported\n");
    close(fd);
    return -EOPNOTSUPP;
  }
  struct linger no_linger = {1, 0};
  (void)setsockopt(fd, SOL_SOCKET, SO_LINGER, &no_linger, sizeof no_linger);
  int nodelay = 1;
  (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &nodelay, sizeof nodelay);
  return fd;
}

// Starts a connection without waiting for it: the descriptor's flags as
// they were (for __pmConnectRestoreFlags), or -errno (the socket closed).
int __pmConnectTo(int fd, const __pmSockAddr* addr, int port) {
  int flags = fcntl(fd, F_GETFL);
  __pmSockAddr mine = *addr;
  if (port >= 0) {
    if (mine.sockaddr.raw.sa_family == AF_INET) mine.sockaddr.inet.sin_port = htons(static_cast<uint16_t>(port));
    if (mine.sockaddr.raw.sa_family == AF_INET6) mine.sockaddr.ipv6.sin6_port = htons(static_cast<uint16_t>(port));
  }
  if (fcntl(fd, F_SETFL, flags | O_NDELAY) < 0) {
    pmNotifyErr(LOG_ERR, "__pmConnectTo: cannot set FNDELAY - fcntl(%d,F_SETFL,0x%x) failed: %s\n", fd,
                flags | O_NDELAY, std::strerror(errno));
  }
  if (__pmConnect(fd, &mine, sizeof mine) < 0 && errno != EINPROGRESS) {
    int err = errno;
    __pmCloseSocket(fd);
    return -err;
  }
  return flags;
}

// The pending error of a connection (SO_ERROR): 0 when it succeeded.
int __pmConnectCheckError(int fd) {
  int err = 0;
  socklen_t len = sizeof err;
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) {
    err = errno;
    pmNotifyErr(LOG_ERR, "__pmConnectCheckError: __pmGetSockOpt(SO_ERROR) failed: %s\n", std::strerror(err));
  }
  return err;
}

// Puts back the flags __pmConnectTo changed and marks the descriptor
// close-on-exec: fd, or -1 (the socket closed) when that fails.
int __pmConnectRestoreFlags(int fd, int flags) {
  if (fcntl(fd, F_SETFL, flags) < 0) {
    pmNotifyErr(LOG_WARNING, "__pmConnectRestoreFlags: cannot restore flags fcntl(%d,F_SETFL,0x%x) failed: %s\n",
                fd, flags, std::strerror(errno));
  }
  int fdflags = fcntl(fd, F_GETFD);
  if (fdflags < 0 || fcntl(fd, F_SETFD, fdflags | FD_CLOEXEC) < 0) {
    pmNotifyErr(LOG_WARNING, "__pmConnectRestoreFlags: fcntl(%d) get/set flags failed: %s\n", fd,
                std::strerror(errno));
    __pmCloseSocket(fd);
    return -1;
  }
  return fd;
}

void __pmFD_ZERO(fd_set* set) { FD_ZERO(set); }
void __pmFD_SET(int fd, fd_set* set) { FD_SET(fd, set); }
void __pmFD_CLR(int fd, fd_set* set) { FD_CLR(fd, set); }
int __pmFD_ISSET(int fd, fd_set* set) { return FD_ISSET(fd, set); }
void __pmFD_COPY(fd_set* to, const fd_set* from) { std::memcpy(to, from, sizeof *to); }
int __pmSelectRead(int nfds, fd_set* readfds, struct timeval* timeout) {
  return select(nfds, readfds, nullptr, nullptr, timeout);
}
int __pmSelectWrite(int nfds, fd_set* writefds, struct timeval* timeout) {
  return select(nfds, nullptr, writefds, nullptr, timeout);
}

int __pmSockAddrIsInet(const __pmSockAddr* addr) { return addr->sockaddr.raw.sa_family == AF_INET; }
int __pmSockAddrIsIPv6(const __pmSockAddr* addr) { return addr->sockaddr.raw.sa_family == AF_INET6; }
int __pmSockAddrIsUnix(const __pmSockAddr* addr) { return addr->sockaddr.raw.sa_family == AF_UNIX; }

// The address in numeric form (malloc'd), or null.
char* __pmSockAddrToString(const __pmSockAddr* addr) {
  char text[INET6_ADDRSTRLEN];
  const sa_family_t family = addr->sockaddr.raw.sa_family;
  if (family == AF_UNIX) return strdup(addr->sockaddr.local.sun_path);
  const void* where = family == AF_INET ? static_cast<const void*>(&addr->sockaddr.inet.sin_addr)
                                        : static_cast<const void*>(&addr->sockaddr.ipv6.sin6_addr);
  if ((family != AF_INET && family != AF_INET6) || inet_ntop(family, where, text, sizeof text) == nullptr) {
    return nullptr;
  }
  return strdup(text);
}

// The host's addresses (IPv4 and IPv6, those configured here), or null.
__pmHostEnt* __pmGetAddrInfo(const char* hostName) {
  auto* he = static_cast<__pmHostEnt*>(std::calloc(1, sizeof(__pmHostEnt)));
  if (he == nullptr) return nullptr;
  struct addrinfo hints = {};
  hints.ai_family = AF_UNSPEC;
  hints.ai_flags = AI_ADDRCONFIG;
  if (getaddrinfo(hostName, nullptr, &hints, &he->addresses) != 0) {
    __pmHostEntFree(he);
    return nullptr;
  }
  return he;
}

void __pmHostEntFree(__pmHostEnt* he) {
  if (he == nullptr) return;
  std::free(he->name);
  if (he->addresses != nullptr) freeaddrinfo(he->addresses);
  std::free(he);
}

// The next address of `he` (*ei null: the first), malloc'd; null after the
// last.
__pmSockAddr* __pmHostEntGetSockAddr(const __pmHostEnt* he, void** ei) {
  auto* ai = static_cast<struct addrinfo*>(*ei);
  ai = ai == nullptr ? he->addresses : ai->ai_next;
  *ei = ai;
  if (ai == nullptr) return nullptr;
  __pmSockAddr* addr = __pmSockAddrAlloc();
  if (addr == nullptr) {
    *ei = nullptr;
    return nullptr;
  }
  std::memcpy(&addr->sockaddr.raw, ai->ai_addr, std::min<size_t>(ai->ai_addrlen, sizeof addr->sockaddr));
  return addr;
}

// The name an address resolves to (malloc'd), or null.
char* __pmGetNameInfo(__pmSockAddr* addr) {
  const sa_family_t family = addr->sockaddr.raw.sa_family;
  if (family == AF_UNIX) return strdup(addr->sockaddr.local.sun_path);
  socklen_t len = family == AF_INET ? sizeof addr->sockaddr.inet : sizeof addr->sockaddr.ipv6;
  char name[NI_MAXHOST];
  if ((family != AF_INET && family != AF_INET6) ||
      getnameinfo(&addr->sockaddr.raw, len, name, sizeof name, nullptr, 0, 0) != 0) {
    return nullptr;
  }
  return strdup(name);
}

// The host's name: the first of its addresses that has one (malloc'd).
char* __pmHostEntGetName(__pmHostEnt* he) {
  if (he->name == nullptr) {
    void* ei = nullptr;
    while (__pmSockAddr* addr = __pmHostEntGetSockAddr(he, &ei)) {
      he->name = __pmGetNameInfo(addr);
      __pmSockAddrFree(addr);
      if (he->name != nullptr) break;
    }
    if (he->name == nullptr) return nullptr;
  }
  return strdup(he->name);
}

// Ignores SIGPIPE, once, unless the program has a handler of its own.
void __pmIgnoreSignalPIPE(void) { pmapi::IgnoreSigpipeOnce(); }

}  // extern "C"
