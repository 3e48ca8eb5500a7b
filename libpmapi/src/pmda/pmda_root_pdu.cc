// pmda_root_pdu.cc: encoding and checking pmdaroot's messages (see
// pmda_root_pdu.h for the layouts).
#include "pmda_root_pdu.h"

#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace pmapi::rootpdu {
namespace {

// Word offsets of the header's fields.
constexpr int kType = 0;
constexpr int kLength = 1;
constexpr int kStatus = 2;
constexpr int kPduVersion = 3;

int32_t Word(Bytes b, int index) {
  int32_t v;
  std::memcpy(&v, b.data() + 4 * index, sizeof v);
  return v;
}

void PutWord(std::vector<uint8_t>& b, int index, int32_t v) { std::memcpy(b.data() + 4 * index, &v, sizeof v); }

std::vector<uint8_t> Header(int type, int bytes, int status) {
  std::vector<uint8_t> b(static_cast<size_t>(bytes), 0);
  PutWord(b, kType, type);
  PutWord(b, kLength, bytes);
  PutWord(b, kStatus, status);
  PutWord(b, kPduVersion, kVersion);
  return b;
}

// Copies at most n bytes of text, stopping at its end (as strncpy); the
// rest of the field stays zero.
void PutText(std::vector<uint8_t>& b, size_t at, const char* text, int n) {
  if (text == nullptr) return;
  for (int i = 0; i < n && text[i] != '\0'; i++) b[at + static_cast<size_t>(i)] = static_cast<uint8_t>(text[i]);
}

// The checks every reply shares, in PCP's order after its size check.
int CheckHeader(Bytes got, int type) {
  if (Word(got, kType) != type) return -ESRCH;
  if (Word(got, kPduVersion) > kVersion) return -ENOTSUP;
  return Word(got, kStatus);
}

}  // namespace

std::vector<uint8_t> EncodeContainer(int type, int pid, const char* name, int namelen, int* err) {
  if (namelen < 0 || namelen >= kMaxPath) {
    *err = namelen < 0 ? -EINVAL : -E2BIG;
    return {};
  }
  std::vector<uint8_t> b = Header(type, kContainerBytes + namelen, 0);
  PutWord(b, 4, pid);
  PutWord(b, 5, namelen);
  PutText(b, kContainerBytes, name, namelen);
  *err = 0;
  return b;
}

std::vector<uint8_t> EncodeStart(int ipctype, const char* label, int labellen, const char* args,
                                 int argslen, int* err) {
  if (labellen <= 0 || argslen <= 0) {
    *err = -EINVAL;
    return {};
  }
  if (labellen >= kMaxLabel || argslen >= kMaxPath) {
    *err = -E2BIG;
    return {};
  }
  std::vector<uint8_t> b = Header(kStartReq, kStartBytes + argslen, 0);
  PutWord(b, 7, ipctype);
  PutWord(b, 8, labellen);
  PutWord(b, 9, argslen);
  PutText(b, 40, label, labellen);
  PutText(b, kStartBytes, args, argslen);
  *err = 0;
  return b;
}

std::vector<uint8_t> EncodeStop(int pid, int code, int force) {
  std::vector<uint8_t> b = Header(kStopReq, kStopBytes, 0);
  PutWord(b, 4, pid);
  PutWord(b, 5, code);
  PutWord(b, 6, force);
  return b;
}

int CheckInfo(Bytes got, int* version, int* features) {
  if (got.size() != kInfoBytes) return -EINVAL;
  if (int sts = CheckHeader(got, kInfo); sts != 0) return sts;
  if (Word(got, kLength) != kInfoBytes) return -E2BIG;
  *version = Word(got, kPduVersion);
  *features = Word(got, 4);
  return 0;
}

int CheckContainer(Bytes got, int type) {
  if (got.size() < kContainerBytes) return -EINVAL;
  if (int sts = CheckHeader(got, type); sts != 0) return sts;
  int64_t need = int64_t{kContainerBytes} + Word(got, 5);
  if (Word(got, kLength) < need) return -E2BIG;
  return 0;
}

int DecodeContainer(Bytes got, int* pid, char* buf, int buflen) {
  int32_t namelen = Word(got, 5);
  // PCP reads the name from its receive buffer whatever recv returned;
  // here a name longer than what arrived is refused.
  if (namelen < 0 || static_cast<int64_t>(got.size()) < int64_t{kContainerBytes} + namelen) return -EINVAL;
  if (pid != nullptr) *pid = Word(got, 4);
  if (buf == nullptr) return namelen;
  if (namelen == 0) {  // PCP leaves the buffer as it was; here it is emptied
    if (buflen > 0) buf[0] = '\0';
    return 0;
  }
  if (namelen >= buflen) return -E2BIG;
  std::memcpy(buf, got.data() + kContainerBytes, static_cast<size_t>(namelen));
  buf[namelen] = '\0';
  return namelen;
}

int CheckStart(Bytes got) {
  // PCP's order: the type and status before the size.
  if (got.size() < kHeaderBytes) return -ESRCH;
  if (Word(got, kType) != kStart) return -ESRCH;
  if (int sts = Word(got, kStatus); sts != 0) return sts;
  if (got.size() < kStartBytes) return -EINVAL;
  if (Word(got, kLength) < kStartBytes) return -E2BIG;
  return 0;
}

int StartPid(Bytes got) { return Word(got, 4); }

int CheckStop(Bytes got) {
  if (got.size() < kStopBytes) return -EINVAL;
  return CheckHeader(got, kStop);
}

void DecodeStop(Bytes got, int* pid, int* code) {
  if (pid != nullptr) *pid = Word(got, 4);
  if (code != nullptr) *code = Word(got, 5);
}

namespace {

// A message of one buffer with room for the two descriptors a start
// message passes.
struct FdMessage {
  FdMessage(void* data, size_t len) : iov{data, len} {
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
  }
  FdMessage(const FdMessage&) = delete;
  FdMessage& operator=(const FdMessage&) = delete;

  iovec iov;
  alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))] = {};
  msghdr msg{};
};

}  // namespace

ssize_t RecvWithDescriptors(int fd, void* data, size_t len, int fds[2]) {
  FdMessage m(data, len);
  ssize_t n = recvmsg(fd, &m.msg, MSG_CMSG_CLOEXEC);
  if (n < 0) return -errno;
  fds[0] = fds[1] = -1;
  for (cmsghdr* c = CMSG_FIRSTHDR(&m.msg); c != nullptr; c = CMSG_NXTHDR(&m.msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    std::vector<int> passed(count);
    std::memcpy(passed.data(), CMSG_DATA(c), count * sizeof(int));
    if (count == 2 && fds[0] < 0) {
      fds[0] = passed[0];
      fds[1] = passed[1];
    } else {
      for (int d : passed) close(d);  // not the pair PCP's protocol passes
    }
  }
  return n;
}

ssize_t SendWithDescriptors(int fd, const void* data, size_t len, int infd, int outfd) {
  FdMessage m(const_cast<void*>(data), len);
  cmsghdr* c = CMSG_FIRSTHDR(&m.msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  if (infd < 0 || outfd < 0) {
    c->cmsg_len = CMSG_LEN(0);
  } else {
    const int fds[2] = {infd, outfd};
    c->cmsg_len = CMSG_LEN(sizeof fds);
    std::memcpy(CMSG_DATA(c), fds, sizeof fds);
  }
  return sendmsg(fd, &m.msg, MSG_NOSIGNAL);
}

}  // namespace pmapi::rootpdu
