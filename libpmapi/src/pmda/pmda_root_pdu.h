// pmda_root_pdu.h: the messages an agent exchanges with PCP's pmdaroot
// over its unix socket ($PCP_VAR_DIR/pmcd/root.socket). Every message is a
// C structure of 32-bit integers in the host's byte order, sent whole with
// one send() and read with one recv():
//
//   header    type, length, status, version (16 bytes)
//   info      header, features, zero                       (24 bytes)
//   container header, pid, namelen, name[namelen]      (24 + namelen)
//   start     header, pid, infd, outfd, ipctype, namelen, argslen,
//             name[64], args[argslen]                  (104 + argslen)
//   stop      header, pid, code, force, zero                (32 bytes)
//
// The reply to a start request carries the agent's two pipe ends as
// SCM_RIGHTS control data. The checks below give the error codes PCP's
// client gives for each malformed or refused reply.
#ifndef PMAPI_PMDA_ROOT_PDU_H_
#define PMAPI_PMDA_ROOT_PDU_H_

#include <sys/types.h>

#include <cstdint>
#include <span>
#include <vector>

namespace pmapi::rootpdu {

inline constexpr int kVersion = 2;
inline constexpr int kInfo = 0x9000;
inline constexpr int kHostNameReq = 0x9001;
inline constexpr int kHostName = 0x9002;
inline constexpr int kProcessIdReq = 0x9003;
inline constexpr int kProcessId = 0x9004;
inline constexpr int kCGroupNameReq = 0x9005;
inline constexpr int kCGroupName = 0x9006;
inline constexpr int kStartReq = 0x9007;
inline constexpr int kStart = 0x9008;
inline constexpr int kStopReq = 0x9009;
inline constexpr int kStop = 0x900a;

inline constexpr int kMaxPath = 4096;  // the name and args fields
inline constexpr int kMaxLabel = 64;   // the start request's label field
inline constexpr int kHeaderBytes = 16;
inline constexpr int kInfoBytes = 24;
inline constexpr int kContainerBytes = 24;  // without the name
inline constexpr int kStartBytes = 104;     // without the args
inline constexpr int kStopBytes = 32;

using Bytes = std::span<const uint8_t>;

// Requests. Each returns the bytes to send, or sets *err (< 0) and
// returns nothing.
std::vector<uint8_t> EncodeContainer(int type, int pid, const char* name, int namelen, int* err);
std::vector<uint8_t> EncodeStart(int ipctype, const char* label, int labellen, const char* args,
                                 int argslen, int* err);
std::vector<uint8_t> EncodeStop(int pid, int code, int force);

// Replies. Each returns 0 if `got` (what one recv read) is acceptable as
// the reply named, else PCP's error code for it.
int CheckInfo(Bytes got, int* version, int* features);
int CheckContainer(Bytes got, int type);
int CheckStart(Bytes got);
int CheckStop(Bytes got);

// The fields of replies that passed their check. DecodeContainer copies
// the name into buf (NUL-terminated) when buf is not null and returns its
// length, or < 0 if it does not fit or the message is short of it.
int DecodeContainer(Bytes got, int* pid, char* buf, int buflen);
int StartPid(Bytes got);
void DecodeStop(Bytes got, int* pid, int* code);

// Receives one message of at most `len` bytes with the pair of descriptors
// a start message passes: fds[0] and fds[1], or -1 each when none came
// (any other number passed is closed). Returns the bytes received or
// -errno.
ssize_t RecvWithDescriptors(int fd, void* data, size_t len, int fds[2]);

// Sends `len` bytes passing infd and outfd (none when either is negative).
// Returns what sendmsg returns.
ssize_t SendWithDescriptors(int fd, const void* data, size_t len, int infd, int outfd);

}  // namespace pmapi::rootpdu

#endif  // PMAPI_PMDA_ROOT_PDU_H_
