// messages.h: the error texts pmRegisterDerivedMetric and
// pmAddDerivedMetric hand back.
#ifndef PMAPI_DERIVE_MESSAGES_H_
#define PMAPI_DERIVE_MESSAGES_H_

#include <string>
#include <string_view>

#include "context_derived.h"

namespace pmapi::derive {

// "Error: pmRegisterDerivedMetric(\"NAME\", ...)\nEXPR\n   ^\nREASON\n".
std::string RegisterMessage(std::string_view name, std::string_view expr, int offset);

// "Syntax Error: pmAddDerivedMetric(...)..." and its other forms.
std::string AddMessage(std::string_view name, std::string_view expr, const AddOutcome& out);

}  // namespace pmapi::derive

#endif  // PMAPI_DERIVE_MESSAGES_H_
