// c_pmda_root_pdu.cc: libpcp_pmda's calls that send, receive and decode
// pmdaroot's messages one at a time (__pmdaSendRootPDUInfo and the rest),
// which PCP's compiled agents and pmdaroot itself call. The layouts are
// pmda_root_pdu.h's; a caller's buffer holds a message exactly as it
// travels: the header's four words, then the message's words and text.
//
// As libpcp_pmda: a send answers what send(2) or sendmsg(2) answered (the
// bytes sent, or -1); a receive answers the bytes received or an error
// code (-errno, -EINVAL for a short message, -ESRCH for another type,
// -ENOTSUP for a newer version, the status the sender set, -E2BIG for a
// length the text does not fit).
#include <pcp/pmapi.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include "pcp_internal.h"
#include "pmda_root_pdu.h"

namespace {

namespace rp = pmapi::rootpdu;

constexpr size_t kLabelAt = 40;  // the start message's label, after 10 words

int Word(const void* buf, int index) {
  int32_t v;
  std::memcpy(&v, static_cast<const char*>(buf) + 4 * index, sizeof v);
  return v;
}

void PutWord(void* buf, int index, int v) {
  int32_t w = v;
  std::memcpy(static_cast<char*>(buf) + 4 * index, &w, sizeof w);
}

void PutHeader(void* buf, int type, int length, int status) {
  PutWord(buf, 0, type);
  PutWord(buf, 1, length);
  PutWord(buf, 2, status);
  PutWord(buf, 3, rp::kVersion);
}

// Up to n bytes of text, stopping at its end, as strncpy copies them.
void PutText(void* buf, size_t at, const char* text, int n) {
  if (text == nullptr || n <= 0) return;
  std::strncpy(static_cast<char*>(buf) + at, text, static_cast<size_t>(n));
}

int Send(int fd, const void* buf, size_t length) {
  return static_cast<int>(send(fd, buf, length, MSG_NOSIGNAL));
}

// The header checks every receive makes after its size check.
int CheckHeader(const void* buf, int type) {
  if (Word(buf, 0) != type) return -ESRCH;
  if (Word(buf, 3) > rp::kVersion) return -ENOTSUP;
  return Word(buf, 2);
}

int Receive(int fd, void* buf, int buflen) {
  ssize_t n = recv(fd, buf, static_cast<size_t>(buflen > 0 ? buflen : 0), 0);
  return n < 0 ? -errno : static_cast<int>(n);
}

// Copies a received message's text field into name[nlen] with its end.
void CopyText(const void* buf, size_t at, int length, char* name) {
  std::memcpy(name, static_cast<const char*>(buf) + at, static_cast<size_t>(length));
  name[length] = '\0';
}

}  // namespace

extern "C" {

int __pmdaSendRootPDUInfo(int fd, int features, int status) {
  char pdu[rp::kInfoBytes] = {};
  PutHeader(pdu, rp::kInfo, rp::kInfoBytes, status);
  PutWord(pdu, 4, features);
  return Send(fd, pdu, sizeof pdu);
}

int __pmdaRecvRootPDUInfo(int fd, int* version, int* features) {
  char pdu[rp::kInfoBytes];
  int sts = Receive(fd, pdu, sizeof pdu);
  if (sts < 0) return sts;
  if (sts != rp::kInfoBytes) return -EINVAL;
  if (int bad = CheckHeader(pdu, rp::kInfo); bad != 0) return bad;
  if (Word(pdu, 1) != rp::kInfoBytes) return -E2BIG;
  *version = Word(pdu, 3);
  *features = Word(pdu, 4);
  return sts;
}

int __pmdaSendRootPDUContainer(int fd, int type, int pid, const char* name, int len, int status) {
  if (len < 0) return -EINVAL;
  if (len >= rp::kMaxPath) return -E2BIG;
  std::vector<char> pdu(static_cast<size_t>(rp::kContainerBytes + len), 0);
  PutHeader(pdu.data(), type, static_cast<int>(pdu.size()), status);
  PutWord(pdu.data(), 4, pid);
  PutWord(pdu.data(), 5, len);
  PutText(pdu.data(), rp::kContainerBytes, name, len);
  return Send(fd, pdu.data(), pdu.size());
}

int __pmdaRecvRootPDUContainer(int fd, int type, void* buffer, int buflen) {
  int sts = Receive(fd, buffer, buflen);
  if (sts < 0) return sts;
  if (sts < rp::kContainerBytes) return -EINVAL;
  if (int bad = CheckHeader(buffer, type); bad != 0) return bad;
  if (Word(buffer, 1) < int64_t{rp::kContainerBytes} + Word(buffer, 5)) return -E2BIG;
  return sts;
}

// The name's length; the name itself copied when `name` is given.
int __pmdaDecodeRootPDUContainer(void* buf, int blen, int* pid, char* name, int nlen) {
  int length = Word(buf, 5);
  // the name must lie within the message (PCP's check allows it to run
  // past the end by the fields between the header and the name)
  if (length < 0 || length > rp::kMaxPath || blen < rp::kContainerBytes + length) return -EINVAL;
  if (pid != nullptr) *pid = Word(buf, 4);
  if (name == nullptr) return length;
  if (length > 0) {
    if (length >= nlen) return -E2BIG;
    CopyText(buf, rp::kContainerBytes, length, name);
  }
  return length;
}

int __pmdaSendRootPDUStartReq(int fd, int ipctype, const char* name, int namelen, const char* args, int argslen) {
  if (namelen <= 0 || argslen <= 0) return -EINVAL;
  if (namelen >= rp::kMaxLabel || argslen >= rp::kMaxPath) return -E2BIG;
  std::vector<char> pdu(static_cast<size_t>(rp::kStartBytes + argslen), 0);
  PutHeader(pdu.data(), rp::kStartReq, static_cast<int>(pdu.size()), 0);
  PutWord(pdu.data(), 7, ipctype);
  PutWord(pdu.data(), 8, namelen);
  PutWord(pdu.data(), 9, argslen);
  PutText(pdu.data(), kLabelAt, name, namelen);
  PutText(pdu.data(), rp::kStartBytes, args, argslen);
  return Send(fd, pdu.data(), pdu.size());
}

int __pmdaRecvRootPDUStartReq(int fd, void* buffer, int buflen) {
  int sts = Receive(fd, buffer, buflen);
  if (sts < 0) return sts;
  if (sts < rp::kStartBytes) return -EINVAL;
  if (int bad = CheckHeader(buffer, rp::kStartReq); bad != 0) return bad;
  if (Word(buffer, 9) < 0 || Word(buffer, 1) < int64_t{rp::kStartBytes} + Word(buffer, 9)) return -E2BIG;
  if (Word(buffer, 8) < 0 || Word(buffer, 8) > rp::kMaxLabel) return -E2BIG;
  return sts;
}

// The reply to a start request, the agent's two descriptors (when both
// are open) passed with it.
int __pmdaSendRootPDUStart(int fd, int pid, int infd, int outfd, const char* name, int namelen, int status) {
  if (namelen <= 0) return -EINVAL;
  if (namelen >= rp::kMaxLabel) return -E2BIG;
  char pdu[rp::kStartBytes] = {};
  PutHeader(pdu, rp::kStart, rp::kStartBytes, status);
  PutWord(pdu, 4, pid);
  PutWord(pdu, 8, namelen);
  PutText(pdu, kLabelAt, name, namelen);
  return static_cast<int>(rp::SendWithDescriptors(fd, pdu, sizeof pdu, infd, outfd));
}

// Receives a start reply into buffer, its descriptors put in the
// message's infd and outfd words (-1 when none came).
int __pmdaRecvRootPDUStart(int fd, void* buffer, int buflen) {
  if (buflen < rp::kStartBytes) return -EINVAL;
  int fds[2];
  const ssize_t n = rp::RecvWithDescriptors(fd, buffer, static_cast<size_t>(rp::kStartBytes), fds);
  if (n < 0) return static_cast<int>(n);
  auto close_passed = [&fds] {
    for (int d : fds)
      if (d >= 0) close(d);
  };
  if (n < rp::kHeaderBytes || Word(buffer, 0) != rp::kStart) {
    close_passed();
    return n < rp::kHeaderBytes ? -EINVAL : -ESRCH;
  }
  if (int status = Word(buffer, 2); status != 0) {
    close_passed();
    return status;
  }
  if (n < rp::kStartBytes || Word(buffer, 1) < rp::kStartBytes) {
    close_passed();
    return n < rp::kStartBytes ? -EINVAL : -E2BIG;
  }
  PutWord(buffer, 5, fds[0]);
  PutWord(buffer, 6, fds[1]);
  return static_cast<int>(n);
}

// The fields of a start message (request or reply); name and args, when
// their sizes are given, get the text with its end.
int __pmdaDecodeRootPDUStart(void* buf, int, int* pid, int* infd, int* outfd, int* ipctype, char* name,
                             int namelen, char* args, int argslen) {
  if (pid != nullptr) *pid = Word(buf, 4);
  if (infd != nullptr) *infd = Word(buf, 5);
  if (outfd != nullptr) *outfd = Word(buf, 6);
  if (ipctype != nullptr) *ipctype = Word(buf, 7);
  int label = Word(buf, 8), text = Word(buf, 9);
  if (namelen > 0 && name != nullptr) {
    if (label < 0 || label >= namelen || label >= rp::kMaxLabel) return -E2BIG;
    CopyText(buf, kLabelAt, label, name);
  }
  if (argslen > 0 && args != nullptr) {
    if (text < 0 || text >= argslen || text >= rp::kMaxPath) return -E2BIG;
    CopyText(buf, rp::kStartBytes, text, args);
  }
  return 0;
}

int __pmdaSendRootPDUStop(int fd, int type, int pid, int code, int force, int status) {
  char pdu[rp::kStopBytes] = {};
  PutHeader(pdu, type, rp::kStopBytes, status);
  PutWord(pdu, 4, pid);
  PutWord(pdu, 5, code);
  PutWord(pdu, 6, force);
  return Send(fd, pdu, sizeof pdu);
}

int __pmdaRecvRootPDUStop(int fd, int type, void* buffer, int buflen) {
  int sts = Receive(fd, buffer, buflen);
  if (sts < 0) return sts;
  if (sts < rp::kStopBytes) return -EINVAL;
  if (int bad = CheckHeader(buffer, type); bad != 0) return bad;
  return sts;
}

int __pmdaDecodeRootPDUStop(void* buf, int, int* pid, int* code, int* force) {
  if (pid != nullptr) *pid = Word(buf, 4);
  if (code != nullptr) *code = Word(buf, 5);
  if (force != nullptr) *force = Word(buf, 6);
  return 0;
}

}  // extern "C"
