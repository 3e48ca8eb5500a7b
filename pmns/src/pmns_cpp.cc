// pmcpp's behaviour, reproduced line by line, including its quirks (a
// second #else after a false #ifdef is a "Macro redefinition", an #ifdef of
// a defined name never sets the line quoted when it is left open) so that
// diagnostics match PCP's byte for byte.
#include "pmns_cpp.h"

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "pmapi/errors.h"
#include "read_file.h"

namespace pmapi::internal {
namespace {

// pmcpp's file_ctl[] has five slots: the main file and four nested levels.
constexpr size_t kMaxLevel = 5;

enum IfState { kIfFalse = 0, kIfTrue = 1, kIfNone = 2 };
enum Op { kDefine, kUndef, kIfdef, kIfndef, kEndif, kElse };

struct Macro {
  std::string name;  // "" once #undef'd (pmcpp zeroes the length)
  std::string value;
};

struct Source {
  std::string name;
  std::vector<std::string> lines;  // each ends with '\n'
  size_t next = 0;
  int lineno = 0;
};

bool IsBlank(char c) { return c == ' ' || c == '\t'; }
bool IsAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Splits file contents into lines as repeated fgets calls see them: a last
// line without a newline is lost, and a NUL byte ends a line's text, which
// then runs on into the next line.
std::vector<std::string> SplitLines(const std::string& data) {
  std::vector<std::string> lines;
  std::string pending;
  size_t pos = 0;
  while (pos < data.size()) {
    size_t nl = data.find('\n', pos);
    if (nl == std::string::npos) break;
    std::string_view line(data.data() + pos, nl + 1 - pos);
    pos = nl + 1;
    size_t nul = line.find('\0');
    if (nul != std::string_view::npos) {
      pending.append(line.substr(0, nul));
      continue;
    }
    pending.append(line);
    lines.push_back(std::move(pending));
    pending.clear();
  }
  return lines;
}

// Opens a regular file or character device, as pmcpp's openfile does.
bool ReadFile(const std::string& path, std::string& data) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return false;
  if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode)) return false;
  absl::StatusOr<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return false;
  data = *std::move(text);
  return true;
}

std::string DirName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  size_t end = path.find_last_not_of('/', slash);
  return end == std::string::npos ? "/" : path.substr(0, end + 1);
}

class Pmcpp {
 public:
  Pmcpp(std::vector<std::string> dirs) : dirs_(std::move(dirs)) {}

  CppOutput Run(const std::string& path);

 private:
  void Fail(const std::string& message);
  bool ProcessLine(std::string line);
  void StripComments(std::string& line);
  bool Include(const std::string& line);
  int Directive(const std::string& line);
  int ApplyDirective(Op op, const std::string& name, const std::string& value);
  std::string Substitute(const std::string& line) const;
  bool Open(const std::string& name, Source& source) const;

  std::vector<std::string> dirs_;  // the main file's directory first
  std::vector<Source> files_;
  std::vector<Macro> macros_;
  std::string line_;  // the line being processed, as pmcpp's ibuf
  std::string out_;
  std::string error_;
  bool failed_ = false;
  int incomment_ = 0;
  int in_if_ = kIfNone;
  int if_lineno_ = 0;
  bool skip_ = false;
};

void Pmcpp::Fail(const std::string& message) {
  if (failed_) return;
  failed_ = true;
  const Source& f = files_.back();
  if (f.lineno > 0) {
    error_ = absl::StrFormat("pmcpp: %s[%d]: %s", f.name, f.lineno, line_);
  } else {
    error_ = absl::StrFormat("pmcpp: %s:\n", f.name);
  }
  absl::StrAppend(&error_, "pmcpp: Error: ", message, "\n");
}

bool Pmcpp::Open(const std::string& name, Source& source) const {
  std::string data;
  if (ReadFile(name, data)) {
    source.name = name;
  } else {
    if (!name.empty() && name[0] == '/') return false;
    bool found = false;
    for (const std::string& dir : dirs_) {
      std::string candidate = absl::StrCat(dir, "/", name);
      if (ReadFile(candidate, data)) {
        source.name = candidate;
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  source.lines = SplitLines(data);
  return true;
}

void Pmcpp::StripComments(std::string& line) {
  bool blanked = false;
  for (size_t i = 0; i < line.size() && line[i] != '\n'; ++i) {
    if (incomment_ > 0) {
      blanked = true;
      if (line[i] == '*' && i + 1 < line.size() && line[i + 1] == '/') {
        incomment_ = 0;
        line[i++] = ' ';
      }
      line[i] = ' ';
    } else if (line[i] == '/' && i + 1 < line.size() && line[i + 1] == '*') {
      incomment_ = files_.back().lineno;
      blanked = true;
      line[i++] = ' ';
      line[i] = ' ';
    }
  }
  if (blanked) {
    size_t end = line.size();
    while (end > 0 && absl::ascii_isspace(line[end - 1])) --end;
    line.resize(end);
    line += '\n';
  }
}

std::string Pmcpp::Substitute(const std::string& line) const {
  std::string out;
  size_t i = 0;
  while (i < line.size()) {
    char c = line[i];
    if (!IsAlpha(c) && c != '_') {
      out += c;
      ++i;
      continue;
    }
    size_t start = i++;
    while (i < line.size() && (IsAlnum(line[i]) || line[i] == '_')) ++i;
    std::string_view word(line.data() + start, i - start);
    const Macro* hit = nullptr;
    for (const Macro& m : macros_) {
      if (m.name == word) {
        hit = &m;
        break;
      }
    }
    out.append(hit != nullptr ? std::string_view(hit->value) : word);
  }
  return out;
}

bool Pmcpp::Include(const std::string& line) {
  size_t p = std::strlen("#include");
  while (p < line.size() && IsBlank(line[p])) ++p;
  if (p >= line.size() || (line[p] != '"' && line[p] != '<')) {
    Fail("Expected \" or < after #include");
    return false;
  }
  char close = line[p] == '"' ? '"' : '>';
  size_t begin = ++p;
  size_t end = begin;
  while (end < line.size() && line[end] != '\n' && line[end] != close) ++end;
  if (end >= line.size() || line[end] != close) {
    Fail(close == '"' ? "Expected \" after file name" : "Expected > after file name");
    return false;
  }
  if (files_.size() == kMaxLevel) {
    Fail("#include and/or #shell nesting too deep");
    return false;
  }
  size_t q = end + 1;
  while (q < line.size() && absl::ascii_isspace(line[q])) ++q;
  if (q < line.size()) {
    Fail("Unexpected extra text in #include line");
    return false;
  }
  Source source;
  if (!Open(line.substr(begin, end - begin), source)) {
    Fail("Cannot open file for #include");
    return false;
  }
  absl::StrAppend(&out_, "# 1 \"", source.name, "\"\n");
  files_.push_back(std::move(source));
  return true;
}

int Pmcpp::Directive(const std::string& line) {
  static constexpr std::pair<const char*, Op> kOps[] = {
      {"define", kDefine}, {"undef", kUndef}, {"ifdef", kIfdef},
      {"ifndef", kIfndef}, {"endif", kEndif}, {"else", kElse}};
  Op op = kDefine;
  size_t p = 0;
  for (const auto& [word, code] : kOps) {
    if (line.compare(1, std::strlen(word), word) == 0) {
      op = code;
      p = 1 + std::strlen(word);
      break;
    }
  }
  if (p == 0) return -1;  // not a control line pmcpp knows
  while (p < line.size() && IsBlank(line[p])) ++p;
  std::string name, value;
  if (op != kEndif && op != kElse) {
    if (p >= line.size() || line[p] == '\n') {
      Fail("Missing macro name");
      return 0;
    }
    size_t start = p;
    for (; p < line.size() && !IsBlank(line[p]); ++p) {
      if (IsAlpha(line[p]) || line[p] == '_') continue;
      if (p > start && absl::ascii_isdigit(line[p])) continue;
      break;
    }
    if (p >= line.size() || !absl::ascii_isspace(line[p])) {
      Fail("Illegal character in macro name");
      return 0;
    }
    name = line.substr(start, p - start);
    if (op == kDefine && line[p] != '\n') {
      while (p < line.size() && IsBlank(line[p])) ++p;
      char quote = '\0';
      if (p < line.size() && (line[p] == '\'' || line[p] == '"')) quote = line[p++];
      size_t vstart = p;
      while (p < line.size() && ((quote == '\0' && !absl::ascii_isspace(line[p])) ||
                                 (quote != '\0' && line[p] != quote))) {
        ++p;
      }
      if (quote != '\0' && p >= line.size()) {
        Fail("Unterminated value string in #define");
        return 1;
      }
      value = line.substr(vstart, p - vstart);
      if (quote != '\0') ++p;
    }
  }
  while (p < line.size() && IsBlank(line[p])) ++p;
  if (p < line.size() && line[p] != '\n') {
    Fail("Unexpected extra text in a control line");
    return 0;
  }
  return ApplyDirective(op, name, value);
}

int Pmcpp::ApplyDirective(Op op, const std::string& name, const std::string& value) {
  if (op == kEndif) {
    if (in_if_ == kIfNone) Fail("No matching #ifdef or #ifndef for #endif");
    in_if_ = kIfNone;
    return 0;
  }
  if (op == kElse) {
    if (in_if_ == kIfNone) {
      Fail("No matching #ifdef or #ifndef for #else");
      return 0;
    }
    in_if_ = 1 - in_if_;
  } else if ((op == kIfdef || op == kIfndef) && in_if_ != kIfNone) {
    Fail("Nested #ifdef or #ifndef");
    return 0;
  }
  if (in_if_ == kIfFalse) return 1;
  for (Macro& m : macros_) {
    // #else carries no name, so like pmcpp it matches an emptied entry
    if (m.name != name) continue;
    switch (op) {
      case kIfdef: in_if_ = kIfTrue; return 0;
      case kIfndef: in_if_ = kIfFalse; return 1;
      case kUndef: m.name.clear(); return 0;
      default: Fail("Macro redefinition"); return 0;
    }
  }
  switch (op) {
    case kIfdef:
      in_if_ = kIfFalse;
      if_lineno_ = files_.back().lineno;
      return 1;
    case kIfndef:
      in_if_ = kIfTrue;
      if_lineno_ = files_.back().lineno;
      return 0;
    case kUndef:
      return 0;
    default:  // #define, and pmcpp's #else that records a nameless macro
      macros_.push_back(Macro{name, value});
      return 0;
  }
}

// Handles one input line; returns false once preprocessing has failed.
bool Pmcpp::ProcessLine(std::string line) {
  line_ = std::move(line);
  StripComments(line_);
  if (incomment_ && line_[0] == '\n') {
    out_ += '\n';
    return true;
  }
  if (line_[0] == '#') {
    if (line_.compare(1, 7, "include") == 0 || line_.compare(1, 5, "shell") == 0) {
      if (skip_) {
        out_ += '\n';
        return true;
      }
      if (line_[1] == 's') {
        Fail("#shell is not supported");
        return false;
      }
      return Include(line_);
    }
    int skip = Directive(line_);
    if (failed_) return false;
    if (skip >= 0) {
      skip_ = skip == 1;
      out_ += '\n';
      return true;
    }
    skip_ = false;  // an unknown control line is passed on, even when skipping
  } else if (skip_) {
    out_ += '\n';
    return true;
  }
  out_ += macros_.empty() ? line_ : Substitute(line_);
  return true;
}

CppOutput Pmcpp::Run(const std::string& path) {
  Source main;
  std::string data;
  main.name = path;
  files_.push_back(std::move(main));
  if (!ReadFile(path, data)) {
    Fail(ErrStr(-ENOENT));
    return CppOutput{out_, error_};
  }
  files_.back().lines = SplitLines(data);
  absl::StrAppend(&out_, "# 1 \"", path, "\"\n");
  while (!failed_) {
    Source& f = files_.back();
    if (f.next == f.lines.size()) {
      if (files_.size() == 1) break;
      files_.pop_back();
      absl::StrAppend(&out_, "# ", files_.back().lineno + 1, " \"", files_.back().name, "\"\n");
      continue;
    }
    f.lineno++;
    ProcessLine(f.lines[f.next++]);
  }
  if (!failed_ && incomment_) {
    files_.back().lineno = 0;
    Fail(absl::StrFormat("Comment at line %d not terminated before end of file", incomment_));
  }
  if (!failed_ && in_if_ != kIfNone) {
    files_.back().lineno = 0;
    Fail(absl::StrFormat(
        "End of input and no matching #endif for #ifdef or #ifndef at line %d", if_lineno_));
  }
  return CppOutput{std::move(out_), std::move(error_)};
}

}  // namespace

CppOutput RunPmcpp(const std::string& path, const std::vector<std::string>& include_dirs) {
  std::vector<std::string> dirs = {DirName(path)};
  dirs.insert(dirs.end(), include_dirs.begin(), include_dirs.end());
  return Pmcpp(std::move(dirs)).Run(path);
}

}  // namespace pmapi::internal
