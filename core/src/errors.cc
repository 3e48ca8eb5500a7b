#include "pmapi/errors.h"

#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"

namespace pmapi {
namespace {

using ErrEntry = ErrorEntry;

constexpr ErrEntry kErrTable[] = {
    {kErrGeneric, "PM_ERR_GENERIC", "Generic error, already reported above"},
    {kErrPmns, "PM_ERR_PMNS", "Problems parsing PMNS definitions"},
    {kErrNopmns, "PM_ERR_NOPMNS", "PMNS not accessible"},
    {kErrDuppmns, "PM_ERR_DUPPMNS", "Attempt to reload the PMNS"},
    {kErrText, "PM_ERR_TEXT", "One-line or help text is not available"},
    {kErrAppversion, "PM_ERR_APPVERSION", "Metric not supported by this version of monitored application"},
    {kErrValue, "PM_ERR_VALUE", "Missing metric value(s)"},
    {kErrTimeout, "PM_ERR_TIMEOUT", "Timeout waiting for a response from PMCD"},
    {kErrNodata, "PM_ERR_NODATA", "Empty archive log file"},
    {kErrReset, "PM_ERR_RESET", "PMCD reset or configuration change"},
    {kErrName, "PM_ERR_NAME", "Unknown metric name"},
    {kErrPmid, "PM_ERR_PMID", "Unknown or illegal metric identifier"},
    {kErrIndom, "PM_ERR_INDOM", "Unknown or illegal instance domain identifier"},
    {kErrInst, "PM_ERR_INST", "Unknown or illegal instance identifier"},
    {kErrType, "PM_ERR_TYPE", "Unknown or illegal metric type"},
    {kErrUnit, "PM_ERR_UNIT", "Illegal pmUnits specification"},
    {kErrConv, "PM_ERR_CONV", "Impossible value or scale conversion"},
    {kErrTrunc, "PM_ERR_TRUNC", "Truncation in value conversion"},
    {kErrSign, "PM_ERR_SIGN", "Negative value in conversion to unsigned"},
    {kErrProfile, "PM_ERR_PROFILE", "Explicit instance identifier(s) required"},
    {kErrIpc, "PM_ERR_IPC", "IPC protocol failure"},
    {kErrTls, "PM_ERR_TLS", "TLS protocol failure"},
    {kErrEof, "PM_ERR_EOF", "IPC channel closed"},
    {kErrNothost, "PM_ERR_NOTHOST", "Operation requires context with host source of metrics"},
    {kErrEol, "PM_ERR_EOL", "End of PCP archive log"},
    {kErrMode, "PM_ERR_MODE", "Illegal mode specification"},
    {kErrLabel, "PM_ERR_LABEL", "Illegal label record at start of a PCP archive log file"},
    {kErrLogrec, "PM_ERR_LOGREC", "Corrupted record in a PCP archive log"},
    {kErrLogfile, "PM_ERR_LOGFILE", "Missing PCP archive log file"},
    {kErrNotarchive, "PM_ERR_NOTARCHIVE", "Operation requires context with archive source of metrics"},
    {kErrNocontext, "PM_ERR_NOCONTEXT", "Attempt to use an illegal context"},
    {kErrProfilespec, "PM_ERR_PROFILESPEC", "NULL pmInDom with non-NULL instlist"},
    {kErrPmidLog, "PM_ERR_PMID_LOG", "Metric not defined in the PCP archive log"},
    {kErrIndomLog, "PM_ERR_INDOM_LOG", "Instance domain identifier not defined in the PCP archive log"},
    {kErrInstLog, "PM_ERR_INST_LOG", "Instance identifier not defined in the PCP archive log"},
    {kErrNoprofile, "PM_ERR_NOPROFILE", "Missing profile - protocol botch"},
    {kErrNoagent, "PM_ERR_NOAGENT", "No PMCD agent for domain of request"},
    {kErrPermission, "PM_ERR_PERMISSION", "No permission to perform requested operation"},
    {kErrConnlimit, "PM_ERR_CONNLIMIT", "PMCD connection limit for this host exceeded"},
    {kErrAgain, "PM_ERR_AGAIN", "Try again. Information not currently available"},
    {kErrIsconn, "PM_ERR_ISCONN", "Already Connected"},
    {kErrNotconn, "PM_ERR_NOTCONN", "Not Connected"},
    {kErrNeedport, "PM_ERR_NEEDPORT", "A non-null port name is required"},
    {kErrNonleaf, "PM_ERR_NONLEAF", "Metric name is not a leaf in PMNS"},
    {kErrPmdanotready, "PM_ERR_PMDANOTREADY", "PMDA is not yet ready to respond to requests"},
    {kErrPmdaready, "PM_ERR_PMDAREADY", "PMDA is now responsive to requests"},
    {kErrBotch, "PM_ERR_BOTCH", "Internal inconsistency detected or assertion failed"},
    {kErrToosmall, "PM_ERR_TOOSMALL", "Insufficient elements in list"},
    {kErrToobig, "PM_ERR_TOOBIG", "Result size exceeded"},
    {kErrFault, "PM_ERR_FAULT", "QA fault injected"},
    {kErrThread, "PM_ERR_THREAD", "Operation not supported for multi-threaded applications"},
    {kErrNocontainer, "PM_ERR_NOCONTAINER", "Container not found"},
    {kErrBadstore, "PM_ERR_BADSTORE", "Bad input to pmstore"},
    {kErrLogoverlap, "PM_ERR_LOGOVERLAP", "Archives overlap in time"},
    {kErrLoghost, "PM_ERR_LOGHOST", "Archives differ by host"},
    {kErrLogchangetype, "PM_ERR_LOGCHANGETYPE", "The type of a metric has changed in an archive"},
    {kErrLogchangesem, "PM_ERR_LOGCHANGESEM", "The semantics of a metric has changed in an archive"},
    {kErrLogchangeindom, "PM_ERR_LOGCHANGEINDOM", "The instance domain of a metric has changed in an archive"},
    {kErrLogchangeunits, "PM_ERR_LOGCHANGEUNITS", "The units of a metric have changed in an archive"},
    {kErrNeedclientcert, "PM_ERR_NEEDCLIENTCERT", "PMCD requires a client certificate"},
    {kErrBadderive, "PM_ERR_BADDERIVE", "Derived metric definition failed"},
    {kErrNolabels, "PM_ERR_NOLABELS", "No support for metric label metadata"},
    {kErrPmdafenced, "PM_ERR_PMDAFENCED", "PMDA is currently fenced and unable to respond to requests"},
    {kErrRectype, "PM_ERR_RECTYPE", "Incorrect record type in an archive"},
    {kErrFeature, "PM_ERR_FEATURE", "Archive feature not supported"},
    {kErrNyi, "PM_ERR_NYI", "Functionality not yet implemented"},
};

// Cyrus SASL's messages, which PCP reports for codes just below PM_ERR_NYI
// (code = PM_ERR_NYI + sasl_code).
struct SaslEntry {
  int sasl_code;
  const char* text;
};

constexpr SaslEntry kSaslTable[] = {
    {-100, "error when parsing configuration file"},
    {-32, "channel binding failure"},
    {-30, "sasl_setpass can't store a property because of a constraint violation"},
    {-29, "sasl_setpass needs old password in order to perform password change"},
    {-28, "user supplied passwords are not permitted"},
    {-27, "passphrase is too weak for security policy"},
    {-26, "user exists, but no verifier for user"},
    {-24, "remote authentication server unavailable"},
    {-23, "version mismatch with plug-in"},
    {-22, "requested change was not needed"},
    {-21, "passphrase locked"},
    {-20, "user not found"},
    {-19, "account disabled"},
    {-18, "passphrase expired, has to be reset"},
    {-17, "One time use of a plaintext password will enable requested mechanism for user"},
    {-16, "encryption needed to use mechanism"},
    {-15, "mechanism too weak for this user"},
    {-14, "authorization failure"},
    {-13, "authentication failure"},
    {-12, "SASL library is not initialized"},
    {-11, "mechanism doesn't support requested feature"},
    {-10, "server failed mutual authentication step"},
    {-9, "integrity check failed"},
    {-8, "transient failure (e.g., weak key)"},
    {-7, "invalid parameter supplied"},
    {-6, "can't request information until later in exchange"},
    {-5, "bad protocol / cancel"},
    {-4, "no mechanism available"},
    {-3, "overflowed buffer"},
    {-2, "no memory available"},
    {-1, "generic failure"},
};

constexpr int kSaslFirst = kErrNyi - 1;     // SASL code -1
constexpr int kSaslLast = kErrNyi - 1000;   // SASL code -1000

const ErrEntry* FindErr(int code) {
  for (const ErrEntry& e : kErrTable) {
    if (e.code == code) return &e;
  }
  return nullptr;
}

std::string SaslText(int code) {
  int sasl = code - kErrNyi;
  for (const SaslEntry& e : kSaslTable) {
    if (e.sasl_code == sasl) return absl::StrCat("Authentication - ", e.text);
  }
  return "Authentication - undefined error!";
}

std::string ErrnoText(int err) {
  char buf[256];
  // GNU strerror_r returns the message, which may not be in buf.
  return std::string(strerror_r(err, buf, sizeof buf));
}

}  // namespace

std::string ErrStr(int code) {
  if (code == 0) return "No error";
  if (const ErrEntry* e = FindErr(code)) return e->text;
  if (code < 0 && code > -kErrBase) return ErrnoText(-code);
  if (code <= kSaslFirst && code >= kSaslLast) return SaslText(code);
  if (code < kSaslLast) {
    return absl::StrCat("Unknown secure sockets error ", code, " (", code - kErrNyi, ")");
  }
  return absl::StrCat("No such PMAPI error code (", code, ")");
}

std::span<const ErrorEntry> ErrorTable() { return kErrTable; }

std::string_view ErrName(int code) {
  const ErrEntry* e = FindErr(code);
  return e ? e->name : "";
}

absl::Status PcpError(int code) { return PcpError(code, ""); }

absl::Status PcpError(int code, std::string_view detail) {
  std::string text = ErrStr(code);
  if (detail.empty()) return PcpErrorWithMessage(code, text);
  return PcpErrorWithMessage(code, absl::StrCat(std::string(detail), ": ", text));
}

// PCP's code travels as the status's raw code: every PCP code is negative
// and every canonical absl code is not, so the two never meet, and the
// status prints as its message alone after absl's "UNKNOWN: " (code()
// reads any code it does not know as kUnknown).
absl::Status PcpErrorWithMessage(int code, std::string message) {
  if (code >= 0) code = kErrGeneric;
  return absl::Status(static_cast<absl::StatusCode>(code), message);
}

int PcpCode(const absl::Status& status) {
  if (status.ok()) return 0;
  const int raw = status.raw_code();
  return raw < 0 ? raw : kErrGeneric;
}

}  // namespace pmapi
