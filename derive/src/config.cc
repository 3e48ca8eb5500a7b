// Derived metric configuration files, read as PCP's pmLoadDerivedConfig
// reads them: "name = expr" lines, "name(attr) = value" help text
// attributes (oneline, helptext) with quoted multi-line values, '#'
// comments, and PCP's diagnostics on standard error.
#include <cerrno>
#include <cstdio>
#include <string>

#include "absl/strings/ascii.h"

#include "registry.h"
#include "trace.h"

namespace pmapi::derive {
namespace {

bool IsAlpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// A metric name: components that start with a letter, then letters,
// digits and underscores.
bool ValidName(const std::string& s) {
  bool first = true;
  for (char ch : s) {
    int c = static_cast<unsigned char>(ch);
    if (first) {
      if (!IsAlpha(c)) return false;
      first = false;
    } else if (c == '.') {
      first = true;
    } else if (!IsAlpha(c) && !absl::ascii_isdigit(c) && c != '_') {
      return false;
    }
  }
  return true;
}

std::string Trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && absl::ascii_isspace(static_cast<unsigned char>(s[a]))) a++;
  while (b > a && absl::ascii_isspace(static_cast<unsigned char>(s[b - 1]))) b--;
  return s.substr(a, b - a);
}

void Say(const std::string& text) { std::fputs(text.c_str(), stderr); }

}  // namespace

class ConfigReader {
 public:
  ConfigReader(Registry* r, const std::string& fname, FILE* fp) : r_(r), fname_(fname), fp_(fp) {}

  int Run();

 private:
  std::string Where() const { return "[" + fname_ + ":" + std::to_string(lineno_) + "] "; }
  void Line(const std::string& buf, long eq, long lp, long rp);
  void Expression(const std::string& buf, long eq, const std::string& name);
  void Attribute(const std::string& buf, long eq, long lp, long rp, const std::string& name);
  bool ReadValue(std::string rest, const std::string& buf, std::string* value);
  void SetAttribute(const std::string& name, const std::string& attr, const std::string& value,
                    const std::string& buf);

  Registry* r_;
  std::string fname_;
  FILE* fp_;
  int lineno_ = 1;
  int count_ = 0;
};

int ConfigReader::Run() {
  std::string buf;
  long eq = -1, lp = -1, rp = -1;
  int c;
  while ((c = std::fgetc(fp_)) != EOF) {
    if (eq == -1) {
      long at = static_cast<long>(buf.size());
      if (c == '=') eq = at;
      else if (c == '(' && lp == -1) lp = at;
      else if (c == ')' && rp == -1) rp = at;
    }
    if (c != '\n') {
      buf.push_back(static_cast<char>(c));
      continue;
    }
    if (!buf.empty() && buf[0] != '#') Line(buf, eq, lp, rp);
    lineno_++;
    buf.clear();
    eq = lp = rp = -1;
  }
  return count_;
}

void ConfigReader::Line(const std::string& buf, long eq, long lp, long rp) {
  if (eq == -1) {
    Say(Where() + "Error: pmLoadDerivedConfig: missing ``='' after derived metric name\n" + buf +
        "\n");
    return;
  }
  const std::string name = Trim(buf.substr(0, static_cast<size_t>(lp != -1 ? lp : eq)));
  if (name.empty()) {
    Say(Where() + "Error: pmLoadDerivedConfig: derived metric name missing\n" +
        buf + "\n");
    return;
  }
  if (!ValidName(name)) {
    Say(Where() + "Error: pmLoadDerivedConfig: illegal derived metric name (" + name + ")\n");
    return;
  }
  if (lp >= 0 && rp == -1) {
    Say(Where() + "Error: pmLoadDerivedConfig: missing ')' after attribute\n" +
        buf + "\n");
    return;
  }
  if (rp >= 0 && lp == -1) {
    Say(Where() + "Error: pmLoadDerivedConfig: missing '(' before attribute\n" +
        buf + "\n");
    return;
  }
  if (lp == -1) {
    Expression(buf, eq, name);
  } else {
    Attribute(buf, eq, lp, rp, name);
  }
}

void ConfigReader::Expression(const std::string& buf, long eq, const std::string& name) {
  const std::string rhs = buf.substr(static_cast<size_t>(eq) + 1);
  size_t start = 0;
  while (start < rhs.size() && absl::ascii_isspace(static_cast<unsigned char>(rhs[start]))) start++;
  if (start == rhs.size()) {
    Say(Where() + "Error: pmLoadDerivedConfig: expression missing\n" +
        buf + "\n");
    return;
  }
  std::optional<int> err = r_->RegisterLocked(name, std::string_view(rhs).substr(start), false);
  if (!err.has_value()) {
    count_++;
    return;
  }
  std::string caret = rhs;
  const long at = static_cast<long>(start) + *err;
  for (size_t i = 0; i < caret.size(); i++) {
    if (static_cast<long>(i) == at) caret[i] = '^';
    else if (!absl::ascii_isspace(static_cast<unsigned char>(caret[i]))) caret[i] = ' ';
  }
  std::string text = Where() + "Error: pmRegisterDerived(" + name + ", ...) syntax error\n" +
                     rhs + "\n" + caret + "\n";
  if (LastError().has_value()) text += *LastError() + "\n";
  Say(text);
}

void ConfigReader::Attribute(const std::string& buf, long eq, long lp, long rp,
                             const std::string& name) {
  const std::string attr =
      rp > lp ? Trim(buf.substr(static_cast<size_t>(lp) + 1, static_cast<size_t>(rp - lp - 1)))
              : std::string();
  if (attr.empty()) {
    Say(Where() + "Error: pmLoadDerivedConfig: attribute name missing\n" +
        buf + "\n");
    return;
  }
  std::string rest = buf.substr(static_cast<size_t>(eq) + 1);
  size_t v = 0;
  while (v < rest.size() && absl::ascii_isspace(static_cast<unsigned char>(rest[v]))) v++;
  rest = rest.substr(v);
  std::string value;
  if (!ReadValue(rest, buf, &value)) return;
  SetAttribute(name, attr, value, buf);
}

// The value after '=': as it is, or a quoted string with \ escapes that
// may continue over more lines.
bool ConfigReader::ReadValue(std::string rest, const std::string& buf, std::string* value) {
  char delim = 0;
  if (!rest.empty() && (rest[0] == '"' || rest[0] == '\'')) {
    delim = rest[0];
    rest = rest.substr(1);
  }
  if (rest.empty()) {
    Say(Where() + "Error: pmLoadDerivedConfig: attribute value missing\n" + buf + "\n");
    return false;
  }
  if (delim == 0) {
    *value = rest;
    return true;
  }
  size_t pos = 0;
  int extra = 0;
  bool escape = false;
  int c = 0;
  for (;;) {
    if (pos < rest.size()) {
      c = static_cast<unsigned char>(rest[pos++]);
    } else if (extra == 0) {
      c = '\n';
    } else if ((c = std::fgetc(fp_)) == EOF) {
      break;
    }
    if (c == '\n') extra++;
    if (escape) {
      escape = false;
      if (c != '\n') value->push_back(static_cast<char>(c));
      continue;
    }
    if (c == '\\') {
      escape = true;
      continue;
    }
    if (c == delim) break;
    value->push_back(static_cast<char>(c));
  }
  if (extra > 1) lineno_ += extra - 1;
  if (c == EOF) {
    Say(Where() + "Error: pmLoadDerivedConfig: missing termination (" + std::string(1, delim) +
        ") for value\n");
    return false;
  }
  std::string tail = pos < rest.size() ? Trim(rest.substr(pos)) : "";
  if (!tail.empty()) {
    Say(Where() + "Warning: pmLoadDerivedConfig: extra text (" + tail +
        ") after attribute value will be ignored\n");
  } else if (pos >= rest.size() && extra > 0) {
    // PCP's reader passes over the first character after a closing quote
    // that ends a later line, then white space; the rest of the line is
    // reported from the next character on.
    c = std::fgetc(fp_);
    while (c != EOF && c != '\n') {
      c = std::fgetc(fp_);
      if (!absl::ascii_isspace(c)) break;
    }
    std::string more;
    if (c != EOF && c != '\n') {
      more.push_back(static_cast<char>(c));
      while ((c = std::fgetc(fp_)) != EOF && c != '\n') more.push_back(static_cast<char>(c));
    }
    if (!more.empty()) {
      Say(Where() + "Warning: pmLoadDerivedConfig: extra text (" + more +
          ") after attribute value will be ignored\n");
    }
  }
  return true;
}

void ConfigReader::SetAttribute(const std::string& name, const std::string& attr,
                                const std::string& value, const std::string& buf) {
  if (trace::Appl0()) {
    trace::Say("setattr: name=\"" + name + "\" attr=\"" + attr + "\" value=\"" + value + "\"");
  }
  GlobalMetric* m = nullptr;
  for (GlobalMetric& g : r_->metrics_) {
    if (g.name == name) m = &g;
  }
  std::string why;
  if (m == nullptr) {
    why = "cannot set attribute, derived metric (" + name + ") not defined";
  } else if (attr == "oneline" || attr == "helptext") {
    std::optional<std::string>& slot = attr == "oneline" ? m->oneline : m->help;
    if (!slot.has_value()) {
      slot = value;
      return;
    }
    why = "duplicate value for attribute (" + attr + ") of metric (" + name + ")";
  } else {
    why = "attribute (" + attr + ") is unknown for metric (" + name + ")";
  }
  Say(Where() + "Error: pmLoadDerivedConfig: " + why + "\n" + buf + "\n");
}

int Registry::LoadFileLocked(const std::string& path) {
  if (trace::On()) trace::Say("pmLoadDerivedConfig(\"" + path + "\")");
  FILE* fp = std::fopen(path.c_str(), "r");
  if (fp == nullptr) return -errno;
  int n = ConfigReader(this, path, fp).Run();
  std::fclose(fp);
  return n;
}

}  // namespace pmapi::derive
