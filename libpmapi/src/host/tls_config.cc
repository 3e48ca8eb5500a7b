// The TLS settings file; see tls_config.h.
#include "tls_config.h"

#include <cctype>
#include <utility>

#include "read_file.h"

namespace pmapi {
namespace {

bool IsBlank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool IsLetter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

// A line's keyword and value, as libpcp finds them: the keyword runs from
// the first non-blank to the first blank, ':' or '='; the value starts
// after that ':' or '=' and its leading blanks.
struct LineParts {
  std::string keyword;
  std::optional<std::string> value;
};

// Reads the value that starts at `at`: it ends at the first blank or '#'
// after its first character, and is kept only if such an end exists.
std::optional<std::string> ValueAt(std::string_view line, size_t at) {
  while (at < line.size() && IsBlank(line[at])) ++at;
  if (at >= line.size() || line[at] == '#') return std::nullopt;
  for (size_t p = at + 1; p < line.size(); ++p) {
    if (line[p] == '#' || IsBlank(line[p])) return std::string(line.substr(at, p - at));
  }
  return std::nullopt;
}

std::optional<LineParts> SplitLine(std::string_view line) {
  size_t start = 0;
  std::optional<size_t> end;
  size_t p = 0;
  for (; p < line.size(); ++p) {
    const char c = line[p];
    if (IsLetter(c)) continue;
    if (start == p && IsBlank(c)) {
      ++start;
      continue;
    }
    if (c == '#' || c == '\n') break;
    if (c == ':' || c == '=') {
      if (!end) end = p;
      ++p;
      break;
    }
    if (IsBlank(c) && !end) end = p;
  }
  if (!end) return std::nullopt;
  // Without a ':' or '=' the scan stopped at the line's end: no value.
  return LineParts{std::string(line.substr(start, *end - start)), ValueAt(line, p)};
}

// The setting a keyword names: the first whose name begins with it.
std::optional<std::string>* SettingFor(const std::string& keyword, TlsSettings* s) {
  const std::pair<std::string_view, std::optional<std::string>*> table[] = {
      {"tls-cert-file", &s->cert_file},
      {"tls-key-file", &s->key_file},
      {"tls-ciphers", &s->ciphers},
      {"tls-ciphersuites", &s->ciphersuites},
      {"tls-ca-cert-file", &s->ca_cert_file},
      {"tls-ca-cert-dir", &s->ca_cert_dir},
      {"tls-client-cert-file", &s->client_cert_file},
      {"tls-client-key-file", &s->client_key_file},
      {"tls-verify-clients", &s->verify_clients},
  };
  for (const auto& [name, slot] : table) {
    if (name.substr(0, keyword.size()) == keyword) return slot;
  }
  return nullptr;
}

}  // namespace

TlsSettings ParseTlsSettings(std::string_view text) {
  TlsSettings s;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl == std::string_view::npos ? text.size() : nl + 1);
    text.remove_prefix(line.size());
    // A NUL ends the line, as it ends the C string libpcp reads into.
    line = line.substr(0, line.find('\0'));
    std::optional<LineParts> parts = SplitLine(line);
    if (!parts) continue;
    std::optional<std::string>* slot = SettingFor(parts->keyword, &s);
    if (slot != nullptr && parts->value) *slot = parts->value;
  }
  return s;
}

std::optional<TlsSettings> LoadTlsSettings(const std::string& path) {
  absl::StatusOr<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return std::nullopt;
  return ParseTlsSettings(*text);
}

}  // namespace pmapi
