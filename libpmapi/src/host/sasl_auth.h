// sasl_auth.h: the client side of pmcd's authentication, as libpcp 6.0.3
// carries it out with Cyrus SASL (service "PCP Collector").
//
// pmcd offers its mechanisms; the client picks one (the spec's "method",
// else the best SASL finds in the list) and answers pmcd's challenges until
// SASL is done. The user name, password and realm come from the host
// spec's attributes; one that is missing is asked for on the console
// ($PCP_CONSOLE, else /dev/tty; "none" asks nobody), as libpcp asks, and
// the answer is kept for the rest of the connection. SASL's own log
// messages become notices. $PCP_SASL2_PLUGIN_PATH and
// $PCP_SASL2_CONFIG_PATH set SASL's plugin and configuration paths.
//
// A SASL failure is PM_ERR_NYI plus SASL's code (negative), as libpcp
// encodes it (pmErrStr gives "Authentication - ...").
//
// Example:
//   absl::StatusOr<std::unique_ptr<pmapi::SaslExchange>> x =
//       pmapi::SaslExchange::Begin("pmcd.example.com", &attrs, 0);
//   absl::StatusOr<std::string> first = (*x)->Start(offered);   // send it
//   while ((*x)->needs_more()) { ... (*x)->Step(challenge) ... }
#ifndef PMAPI_SRC_HOST_SASL_AUTH_H_
#define PMAPI_SRC_HOST_SASL_AUTH_H_

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "host_connection.h"

namespace pmapi {

// libpcp's limit on one authentication PDU's payload.
inline constexpr size_t kMaxAuthBytes = 2048;

class SaslExchange {
 public:
  // Makes the SASL client for `server` (the name SASL is given) with the
  // attributes in *attrs, which must outlive the exchange. `ssf` is the
  // security strength the connection already has (TLS cipher bits, or 0).
  static absl::StatusOr<std::unique_ptr<SaslExchange>> Begin(const std::string& server,
                                                             HostAttributes* attrs, int ssf);
  ~SaslExchange();
  SaslExchange(const SaslExchange&) = delete;
  SaslExchange& operator=(const SaslExchange&) = delete;

  // Chooses the mechanism from pmcd's list (its bytes up to a NUL) and
  // returns the client's first message: the mechanism's name, a NUL, and
  // its initial response if it has one. -E2BIG if that does not fit an
  // authentication PDU.
  absl::StatusOr<std::string> Start(std::string_view offered);
  // True while SASL expects another challenge from pmcd.
  bool needs_more() const { return continuing_; }
  // Returns the response to one of pmcd's challenges.
  absl::StatusOr<std::string> Step(std::string_view challenge);

  // The SASL connection and what its callbacks answer from.
  struct State;

 private:
  explicit SaslExchange(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
  bool continuing_ = false;
};

}  // namespace pmapi

#endif  // PMAPI_SRC_HOST_SASL_AUTH_H_
