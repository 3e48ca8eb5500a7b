// notice.h: diagnostics the library reports on its own as it works, where
// libpcp reports them (pmNotifyErr): a warning when pmproxy does not greet
// a client as a proxy should, for one. The C layer installs the handler
// that prints them as PCP does; with none installed they are dropped (the
// failure itself always reaches the caller as a status).
//
// Example:
//   pmapi::Notice(LOG_WARNING, "__pmConnectPMCD: bad version string from pmproxy: \"x\"");
#ifndef PMAPI_SRC_CORE_NOTICE_H_
#define PMAPI_SRC_CORE_NOTICE_H_

#include <string>

namespace pmapi {

// priority is syslog's (LOG_WARNING, ...); text has no trailing newline.
using NoticeHandler = void (*)(int priority, const char* text);

// Installs the handler (nullptr drops notices). Thread-safe.
void SetNoticeHandler(NoticeHandler handler);

// Reports one notice through the installed handler, if any.
void Notice(int priority, const std::string& text);

}  // namespace pmapi

#endif  // PMAPI_SRC_CORE_NOTICE_H_
