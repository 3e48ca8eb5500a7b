// pmcd authentication with Cyrus SASL; see sasl_auth.h.
#include "sasl_auth.h"

#include <sasl/sasl.h>
#include <syslog.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <vector>

#include "notice.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

absl::Status SaslError(int code) { return PcpError(kErrNyi + code); }

// SASL's own messages, as notices at libpcp's levels (its debugging levels
// are not shown).
int LogMessage(void*, int level, const char* message) {
  if (message == nullptr) return SASL_BADPARAM;
  int priority = LOG_INFO;
  switch (level) {
    case SASL_LOG_NONE: return SASL_OK;
    case SASL_LOG_ERR: priority = LOG_ERR; break;
    case SASL_LOG_FAIL: priority = LOG_ALERT; break;
    case SASL_LOG_WARN: priority = LOG_WARNING; break;
    case SASL_LOG_NOTE: priority = LOG_NOTICE; break;
    case SASL_LOG_DEBUG:
    case SASL_LOG_TRACE:
    case SASL_LOG_PASS: return SASL_OK;
    default: break;
  }
  Notice(priority, message);
  return SASL_OK;
}

using SaslProc = int (*)(void);

// SASL's callback table holds every callback as int (*)(void).
template <typename F>
SaslProc AsProc(F f) {
  return reinterpret_cast<SaslProc>(reinterpret_cast<void (*)()>(f));
}

// The process-wide SASL client library, started once.
void StartSaslLibrary() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (const char* p = std::getenv("PCP_SASL2_PLUGIN_PATH")) sasl_set_path(SASL_PATH_TYPE_PLUGIN, const_cast<char*>(p));
    if (const char* p = std::getenv("PCP_SASL2_CONFIG_PATH")) sasl_set_path(SASL_PATH_TYPE_CONFIG, const_cast<char*>(p));
    static sasl_callback_t common[] = {
        {SASL_CB_LOG, AsProc(&LogMessage), nullptr},
        {SASL_CB_LIST_END, nullptr, nullptr},
    };
    // A failure shows in sasl_client_new's answer.
    (void)sasl_client_init(common);
  });
}

void SetEcho(int fd, bool on) {
  if (!isatty(fd)) return;
  termios t{};
  tcgetattr(fd, &t);
  if (on) {
    t.c_lflag |= ECHO;
  } else {
    t.c_lflag &= ~static_cast<tcflag_t>(ECHO);
  }
  tcsetattr(fd, TCSAFLUSH, &t);
}

// One line from the console: the prompt shown (and, for a secret, echo
// off) only on a terminal; a line ending is taken off a line of two or
// more bytes, as libpcp takes it.
std::string PromptLine(FILE* in, FILE* out, const char* prompt, bool secret) {
  const int fd = fileno(in);
  const bool tty = isatty(fd) != 0;
  if (tty) {
    std::fputs(prompt, out);
    std::fflush(out);
    if (secret) SetEcho(fd, false);
  }
  char line[256] = {};
  std::string value;
  if (std::fgets(line, sizeof line - 1, in) != nullptr) {
    value = line;
    if (value.size() >= 2 && (value.back() == '\n' || value.back() == '\r')) value.pop_back();
  }
  if (tty && secret) {
    std::fputs("\n", out);
    SetEcho(fd, true);
  }
  return value;
}

// Asks on the console ($PCP_CONSOLE, else /dev/tty). nullopt when nobody
// may be asked or the console cannot be opened.
std::optional<std::string> AskConsole(const char* prompt, bool secret) {
  const char* console = std::getenv("PCP_CONSOLE");
  if (console != nullptr && std::strcmp(console, "none") == 0) return std::nullopt;
  if (console == nullptr) console = "/dev/tty";
  FILE* in = std::fopen(console, "r");
  if (in == nullptr) {
    Notice(LOG_ERR, "opening input terminal for read");
    return std::nullopt;
  }
  FILE* out = std::fopen(console, "w");
  if (out == nullptr) {
    Notice(LOG_ERR, "opening output terminal for write");
    std::fclose(in);
    return std::nullopt;
  }
  std::string value = PromptLine(in, out, prompt, secret);
  std::fclose(in);
  std::fclose(out);
  return value;
}

}  // namespace

struct SaslExchange::State {
  HostAttributes* attrs = nullptr;
  sasl_conn_t* conn = nullptr;
  std::vector<sasl_callback_t> callbacks;
  // The password as SASL wants it; SASL holds on to it.
  std::vector<unsigned char> secret;
  // Answers to prompts, kept while SASL may hold them.
  std::deque<std::string> kept;

  ~State() {
    if (conn != nullptr) sasl_dispose(&conn);
  }

  // The attribute's value, else the console's answer (kept in the
  // attributes, so it is asked once).
  const char* Value(std::optional<std::string>* slot, const char* prompt, bool secret) {
    if (!slot->has_value()) {
      std::optional<std::string> asked = AskConsole(prompt, secret);
      if (!asked) return nullptr;
      *slot = std::move(asked);
    }
    return (*slot)->c_str();
  }
};

namespace {

using State = SaslExchange::State;

int SimpleValue(void* context, int id, const char** result, unsigned* len) {
  auto* s = static_cast<State*>(context);
  if (result == nullptr) return SASL_BADPARAM;
  const char* value = nullptr;
  int sts = SASL_OK;
  if (id == SASL_CB_USER || id == SASL_CB_AUTHNAME) {
    value = s->Value(&s->attrs->user, "Username: ", false);
  } else if (id != SASL_CB_LANGUAGE) {
    sts = SASL_BADPARAM;
  }
  if (len != nullptr) *len = value != nullptr ? static_cast<unsigned>(std::strlen(value)) : 0;
  *result = value;
  return sts;
}

int RealmValue(void* context, int id, const char**, const char** result) {
  auto* s = static_cast<State*>(context);
  if (id != SASL_CB_GETREALM) return SASL_FAIL;
  *result = s->Value(&s->attrs->realm, "Realm: ", false);
  return SASL_OK;
}

int SecretValue(sasl_conn_t* conn, void* context, int id, sasl_secret_t** secret) {
  auto* s = static_cast<State*>(context);
  if (conn == nullptr || secret == nullptr || id != SASL_CB_PASS) return SASL_BADPARAM;
  const char* password = s->Value(&s->attrs->password, "Password: ", true);
  const size_t length = password != nullptr ? std::strlen(password) : 0;
  s->secret.assign(sizeof(sasl_secret_t) + length + 1, 0);
  auto* out = reinterpret_cast<sasl_secret_t*>(s->secret.data());
  if (password != nullptr) {
    out->len = length;
    std::memcpy(out->data, password, length);
  }
  *secret = out;
  return SASL_OK;
}

// A mechanism's own question: "prompt [default]: " (with its challenge).
int PromptValue(void* context, int id, const char* challenge, const char* prompt,
                const char* defaultresult, const char** result, unsigned* length) {
  auto* s = static_cast<State*>(context);
  if (id != SASL_CB_ECHOPROMPT && id != SASL_CB_NOECHOPROMPT) return SASL_BADPARAM;
  if (prompt == nullptr || result == nullptr || length == nullptr) return SASL_BADPARAM;
  if (defaultresult == nullptr) defaultresult = "";
  std::string message = challenge == nullptr
                            ? std::string(prompt) + " [" + defaultresult + "]: "
                            : std::string(prompt) + " [challenge: " + challenge + "] [" + defaultresult + "]: ";
  message = message.substr(0, 511);
  if (id == SASL_CB_ECHOPROMPT) {
    std::optional<std::string> answer = AskConsole(message.c_str(), false);
    if (answer && !answer->empty()) {
      s->kept.push_back(*answer);
      *result = s->kept.back().c_str();
    } else {
      *result = defaultresult;
    }
  } else {
    // As libpcp: a line read from standard input, as it is; at its end,
    // the prompt's own text.
    char line[512];
    std::strncpy(line, message.c_str(), sizeof line - 1);
    line[sizeof line - 1] = '\0';
    if (std::fgets(line, sizeof line, stdin) == nullptr || line[0] != '\0') {
      s->kept.push_back(line);
      *result = s->kept.back().c_str();
    } else {
      *result = defaultresult;
    }
  }
  *length = static_cast<unsigned>(std::strlen(*result));
  return SASL_OK;
}

std::vector<sasl_callback_t> Callbacks(State* s) {
  return {
      {SASL_CB_USER, AsProc(&SimpleValue), s},
      {SASL_CB_AUTHNAME, AsProc(&SimpleValue), s},
      {SASL_CB_LANGUAGE, AsProc(&SimpleValue), s},
      {SASL_CB_GETREALM, AsProc(&RealmValue), s},
      {SASL_CB_PASS, AsProc(&SecretValue), s},
      {SASL_CB_ECHOPROMPT, AsProc(&PromptValue), s},
      {SASL_CB_NOECHOPROMPT, AsProc(&PromptValue), s},
      {SASL_CB_LIST_END, nullptr, nullptr},
  };
}

absl::Status SetProperties(sasl_conn_t* conn, int ssf) {
  sasl_ssf_t external = static_cast<sasl_ssf_t>(ssf);
  if (int sts = sasl_setprop(conn, SASL_SSF_EXTERNAL, &external); sts != SASL_OK) return SaslError(sts);
  sasl_security_properties_t props{};
  props.maxbufsize = kMaxAuthBytes;
  props.max_ssf = UINT_MAX;
  if (int sts = sasl_setprop(conn, SASL_SEC_PROPS, &props); sts != SASL_OK) return SaslError(sts);
  return absl::OkStatus();
}

}  // namespace

SaslExchange::SaslExchange(std::unique_ptr<State> state) : state_(std::move(state)) {}
SaslExchange::~SaslExchange() = default;

absl::StatusOr<std::unique_ptr<SaslExchange>> SaslExchange::Begin(const std::string& server,
                                                                  HostAttributes* attrs, int ssf) {
  StartSaslLibrary();
  auto state = std::make_unique<State>();
  state->attrs = attrs;
  state->callbacks = Callbacks(state.get());
  int sts = sasl_client_new("PCP Collector", server.c_str(), nullptr, nullptr,
                            state->callbacks.data(), 0, &state->conn);
  if (sts != SASL_OK && sts != SASL_CONTINUE) return SaslError(sts);
  absl::Status s = SetProperties(state->conn, ssf);
  if (!s.ok()) return s;
  return std::unique_ptr<SaslExchange>(new SaslExchange(std::move(state)));
}

absl::StatusOr<std::string> SaslExchange::Start(std::string_view offered) {
  // pmcd's list as a C string, unless the spec names the method.
  std::string mechanisms(offered.substr(0, offered.find('\0')));
  if (state_->attrs->method.has_value()) mechanisms = state_->attrs->method->substr(0, kMaxAuthBytes - 1);
  const char* out = nullptr;
  unsigned outlen = 0;
  const char* chosen = nullptr;
  int sts = sasl_client_start(state_->conn, mechanisms.c_str(), nullptr, &out, &outlen, &chosen);
  if (sts != SASL_OK && sts != SASL_CONTINUE) return SaslError(sts);
  continuing_ = sts == SASL_CONTINUE;
  std::string message(chosen != nullptr ? chosen : "");
  message = message.substr(0, std::min(message.find('\0'), kMaxAuthBytes - 1));
  message.push_back('\0');
  if (out != nullptr) {
    if (kMaxAuthBytes - message.size() < outlen) return PcpError(-E2BIG);
    message.append(out, outlen);
  }
  return message;
}

absl::StatusOr<std::string> SaslExchange::Step(std::string_view challenge) {
  const char* out = nullptr;
  unsigned outlen = 0;
  int sts = sasl_client_step(state_->conn, challenge.data(), static_cast<unsigned>(challenge.size()),
                             nullptr, &out, &outlen);
  if (sts != SASL_OK && sts != SASL_CONTINUE) return SaslError(sts);
  continuing_ = sts == SASL_CONTINUE;
  return out != nullptr ? std::string(out, outlen) : std::string();
}

}  // namespace pmapi
