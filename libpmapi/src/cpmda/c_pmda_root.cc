// c_pmda_root.cc: pmdaRoot*, the client side of PCP's pmdaroot, the
// privileged helper agent that looks up containers and starts agents for
// an unprivileged pmcd. The messages are in pmda_root_pdu.h; each request
// is one send() and each reply one recv(), as PCP's library does.
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "pmda_root_pdu.h"

namespace pmapi {
namespace {

namespace rp = rootpdu;

int SendAll(int fd, const std::vector<uint8_t>& pdu) {
  ssize_t n = send(fd, pdu.data(), pdu.size(), MSG_NOSIGNAL);
  return n < 0 ? -errno : 0;
}

// One recv into a buffer of `room` bytes; the bytes read, or -errno.
int RecvOnce(int fd, std::vector<uint8_t>& buf, size_t room) {
  buf.assign(room, 0);
  ssize_t n = recv(fd, buf.data(), buf.size(), 0);
  if (n < 0) return -errno;
  buf.resize(static_cast<size_t>(n));
  return 0;
}

std::string SocketPath(const char* path) {
  if (path != nullptr) return std::string(path).substr(0, rp::kMaxPath - 1);
  const char* dir = pmGetOptionalConfig("PCP_VAR_DIR");
  if (dir == nullptr) return {};
  return std::string(dir) + "/pmcd/root.socket";
}

// Connects a unix stream socket to `path`. PCP's library reports a failed
// connect() as -1 (PM's -EPERM), whatever errno says, and logs it only
// under the libpmda debug flag; so does this.
int ConnectUnix(const std::string& path) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    int sts = -errno;
    pmNotifyErr(LOG_ERR, "pmdaRootConnect: cannot create socket %s: %s\n", path.c_str(), std::strerror(-sts));
    return sts;
  }
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0) {
    if (pmDebugOptions.libpmda)
      pmNotifyErr(LOG_INFO, "pmdaRootConnect: cannot connect to %s: %s\n", path.c_str(), std::strerror(errno));
    close(fd);
    return -1;
  }
  return fd;
}

int ReadInfo(int fd, int* version, int* features) {
  std::vector<uint8_t> got;
  if (int sts = RecvOnce(fd, got, rp::kInfoBytes); sts < 0) return sts;
  return rp::CheckInfo(got, version, features);
}

// A container request and its reply: the reply's bytes in *got, or < 0.
int AskContainer(int fd, int type, int pid, const char* name, int namelen, std::vector<uint8_t>* got,
                 size_t room) {
  int sts = 0;
  std::vector<uint8_t> pdu = rp::EncodeContainer(type, pid, name, namelen, &sts);
  if (sts < 0) return sts;
  if ((sts = SendAll(fd, pdu)) < 0) return sts;
  if ((sts = RecvOnce(fd, *got, room)) < 0) return sts;
  return rp::CheckContainer(*got, type + 1);
}

// Resolves the target of a container request. A null name asks by
// process ID, given in namelen (PCP's by-PID access, meant for testing);
// it goes out as that pid with an empty name.
int Target(int fd, const char* name, int* namelen, int* pid) {
  if (fd < 0) return -ENOTCONN;
  *pid = 0;
  if (name == nullptr) {
    *pid = *namelen;
    *namelen = 0;
  }
  return 0;
}

int NamedLookup(int fd, int type, const char* name, int namelen, char* buffer, int buflen) {
  int pid;
  if (int sts = Target(fd, name, &namelen, &pid); sts < 0) return sts;
  std::vector<uint8_t> got;
  if (int sts = AskContainer(fd, type, pid, name, namelen, &got, rp::kContainerBytes + 2 * rp::kMaxPath); sts != 0)
    return sts;
  return rp::DecodeContainer(got, &pid, buffer, buflen);
}

int Stop(int fd, int pid, int force, int* pidout, int* code) {
  if (int sts = SendAll(fd, rp::EncodeStop(pid, 0, force)); sts < 0) return sts;
  std::vector<uint8_t> got;
  if (int sts = RecvOnce(fd, got, rp::kStopBytes); sts < 0) return sts;
  if (int sts = rp::CheckStop(got); sts != 0) return sts;
  rp::DecodeStop(got, pidout, code);
  return 0;
}

// Receives the start reply with its two descriptors (or -1s).
int RecvStart(int fd, std::vector<uint8_t>* got, int fds[2]) {
  got->assign(rp::kStartBytes + rp::kMaxPath, 0);
  ssize_t n = rp::RecvWithDescriptors(fd, got->data(), got->size(), fds);
  if (n < 0) return static_cast<int>(n);
  got->resize(static_cast<size_t>(n));
  return 0;
}

}  // namespace
}  // namespace pmapi

using namespace pmapi;  // NOLINT: the C entry points below

int pmdaRootConnect(const char* path) {
  std::string where = SocketPath(path);
  if (where.empty()) return PM_ERR_GENERIC;
  int fd = ConnectUnix(where);
  if (fd < 0) return fd;
  int version = 0, features = 0;
  if (int sts = ReadInfo(fd, &version, &features); sts != 0) {
    char msg[PM_MAXERRMSGLEN];
    pmNotifyErr(LOG_ERR, "pmdaRootConnect: cannot verify %s server: %s\n", where.c_str(),
                pmErrStr_r(sts, msg, sizeof msg));
    close(fd);
    return sts;
  }
  if (pmDebugOptions.libpmda)
    pmNotifyErr(LOG_INFO, "pmdaRootConnect: %s server fd=%d version=%d features=0x%x\n", where.c_str(), fd, version,
                features);
  return fd;
}

// As PCP's: the connection is shut down, and the descriptor left open.
void pmdaRootShutdown(int fd) {
  if (fd >= 0) shutdown(fd, SHUT_RDWR);
}

int pmdaRootContainerHostName(int fd, const char* name, int namelen, char* buffer, int buflen) {
  return NamedLookup(fd, rp::kHostNameReq, name, namelen, buffer, buflen);
}

int pmdaRootContainerCGroupName(int fd, const char* name, int namelen, char* buffer, int buflen) {
  return NamedLookup(fd, rp::kCGroupNameReq, name, namelen, buffer, buflen);
}

int pmdaRootContainerProcessID(int fd, const char* name, int namelen) {
  int pid;
  if (int sts = Target(fd, name, &namelen, &pid); sts < 0) return sts;
  std::vector<uint8_t> got;
  if (int sts = AskContainer(fd, rp::kProcessIdReq, pid, name, namelen, &got, rp::kContainerBytes + rp::kMaxPath);
      sts != 0)
    return sts;
  if (int sts = rp::DecodeContainer(got, &pid, nullptr, 0); sts < 0) return sts;
  return pid;
}

int pmdaRootProcessStart(int fd, int ipctype, const char* label, int labellen, const char* args, int argslen,
                         int* pid, int* infd, int* outfd) {
  int sts = 0;
  std::vector<uint8_t> pdu = rootpdu::EncodeStart(ipctype, label, labellen, args, argslen, &sts);
  if (sts < 0) return sts;
  if ((sts = SendAll(fd, pdu)) < 0) return sts;
  std::vector<uint8_t> got;
  int fds[2] = {-1, -1};
  if ((sts = RecvStart(fd, &got, fds)) < 0) return sts;
  if ((sts = rootpdu::CheckStart(got)) != 0) {
    for (int d : fds)
      if (d >= 0) close(d);
    return sts;
  }
  if (pid != nullptr) *pid = rootpdu::StartPid(got);
  if (infd != nullptr) *infd = fds[0];
  if (outfd != nullptr) *outfd = fds[1];
  return 0;
}

int pmdaRootProcessWait(int fd, int pid, int* status) {
  int sts = Stop(fd, pid, 0, &pid, status);
  return sts != 0 ? sts : pid;
}

int pmdaRootProcessTerminate(int fd, int pid) { return Stop(fd, pid, 1, nullptr, nullptr); }
