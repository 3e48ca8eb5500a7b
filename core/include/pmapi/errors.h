// pmapi/errors.h: PCP's error codes, their text, and how they travel in
// absl::Status.
//
// Every error the library reports carries a PCP code (a PM_ERR_* value, or a
// negated errno). Inside the library errors are absl::Status values made by
// PcpError(); at the edges PcpCode() recovers the code and ErrStr() the exact
// text PCP 6.0.3's pmErrStr prints for it.
//
// Example:
//   absl::Status s = pmapi::PcpError(pmapi::kErrName);
//   int code = pmapi::PcpCode(s);              // -12357
//   std::string text = pmapi::ErrStr(code);    // "Unknown metric name"
#ifndef PMAPI_ERRORS_H_
#define PMAPI_ERRORS_H_

#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace pmapi {

inline constexpr int kErrBase = 12345;

inline constexpr int kErrGeneric = -12345;
inline constexpr int kErrPmns = -12346;
inline constexpr int kErrNopmns = -12347;
inline constexpr int kErrDuppmns = -12348;
inline constexpr int kErrText = -12349;
inline constexpr int kErrAppversion = -12350;
inline constexpr int kErrValue = -12351;
inline constexpr int kErrTimeout = -12353;
inline constexpr int kErrNodata = -12354;
inline constexpr int kErrReset = -12355;
inline constexpr int kErrName = -12357;
inline constexpr int kErrPmid = -12358;
inline constexpr int kErrIndom = -12359;
inline constexpr int kErrInst = -12360;
inline constexpr int kErrUnit = -12361;
inline constexpr int kErrConv = -12362;
inline constexpr int kErrTrunc = -12363;
inline constexpr int kErrSign = -12364;
inline constexpr int kErrProfile = -12365;
inline constexpr int kErrIpc = -12366;
inline constexpr int kErrEof = -12368;
inline constexpr int kErrNothost = -12369;
inline constexpr int kErrEol = -12370;
inline constexpr int kErrMode = -12371;
inline constexpr int kErrLabel = -12372;
inline constexpr int kErrLogrec = -12373;
inline constexpr int kErrNotarchive = -12374;
inline constexpr int kErrLogfile = -12375;
inline constexpr int kErrNocontext = -12376;
inline constexpr int kErrProfilespec = -12377;
inline constexpr int kErrPmidLog = -12378;
inline constexpr int kErrIndomLog = -12379;
inline constexpr int kErrInstLog = -12380;
inline constexpr int kErrNoprofile = -12381;
inline constexpr int kErrNoagent = -12386;
inline constexpr int kErrPermission = -12387;
inline constexpr int kErrConnlimit = -12388;
inline constexpr int kErrAgain = -12389;
inline constexpr int kErrIsconn = -12390;
inline constexpr int kErrNotconn = -12391;
inline constexpr int kErrNeedport = -12392;
inline constexpr int kErrNonleaf = -12394;
inline constexpr int kErrType = -12397;
inline constexpr int kErrThread = -12398;
inline constexpr int kErrNocontainer = -12399;
inline constexpr int kErrBadstore = -12400;
inline constexpr int kErrLogoverlap = -12401;
inline constexpr int kErrLoghost = -12402;
inline constexpr int kErrLogchangetype = -12404;
inline constexpr int kErrLogchangesem = -12405;
inline constexpr int kErrLogchangeindom = -12406;
inline constexpr int kErrLogchangeunits = -12407;
inline constexpr int kErrNeedclientcert = -12408;
inline constexpr int kErrBadderive = -12409;
inline constexpr int kErrNolabels = -12410;
inline constexpr int kErrPmdafenced = -12411;
inline constexpr int kErrRectype = -12412;
inline constexpr int kErrFeature = -12413;
inline constexpr int kErrTls = -12414;
inline constexpr int kErrBotch = -12442;
inline constexpr int kErrToosmall = -12443;
inline constexpr int kErrToobig = -12444;
inline constexpr int kErrFault = -12445;
inline constexpr int kErrPmdaready = -13393;
inline constexpr int kErrPmdanotready = -13394;
inline constexpr int kErrNyi = -21344;

// The longest message pmErrStr produces fits in this many bytes.
inline constexpr int kMaxErrMsgLen = 128;

// Returns the text PCP's pmErrStr gives for `code`: the PM_ERR_* message,
// strerror() for a negated errno, and PCP's fallback wording otherwise.
[[nodiscard]] std::string ErrStr(int code);

// Returns the symbolic name ("PM_ERR_NAME") of a PM_ERR_* code, or "" if
// `code` is not one.
[[nodiscard]] std::string_view ErrName(int code);

// One PM_ERR_* code with its symbolic name and message.
struct ErrorEntry {
  int code;
  const char* name;
  const char* text;
};

// Returns every PM_ERR_* code, in the order PCP lists them (pmerr -l).
[[nodiscard]] std::span<const ErrorEntry> ErrorTable();

// Returns a non-OK status that carries `code` (a negative PCP code) and whose
// message is ErrStr(code). REQUIRES: code < 0.
absl::Status PcpError(int code);
// As above, with `detail` prefixed to the message ("detail: text").
absl::Status PcpError(int code, std::string_view detail);

// Returns a non-OK status that carries `code` with `message` as its whole
// message: for parsers whose error text is not ErrStr(code) (pmParseInterval
// and friends return their own diagnostic).
absl::Status PcpErrorWithMessage(int code, std::string message);

// Returns the PCP code a status carries: 0 for OK, the code given to
// PcpError, or kErrGeneric for a status that was not made by PcpError.
[[nodiscard]] int PcpCode(const absl::Status& status);

}  // namespace pmapi

#endif  // PMAPI_ERRORS_H_
