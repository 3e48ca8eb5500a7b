#include "lexer.h"

#include "trace.h"

#include <cerrno>
#include <cstdlib>

#include "absl/strings/ascii.h"

namespace pmapi::derive {
namespace {

constexpr int kEof = -1;

bool IsAlpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

struct Function {
  const char* name;
  Tok tok;
};

constexpr Function kFunctions[] = {
    {"avg", kTAvg},         {"count", kTCount},       {"delta", kTDelta},
    {"max", kTMax},         {"min", kTMin},           {"sum", kTSum},
    {"anon", kTAnon},       {"rate", kTRate},         {"instant", kTInstant},
    {"mkconst", kTMkconst}, {"rescale", kTRescale},   {"defined", kTDefined},
    {"matchinst", kTMatchinst}, {"scalar", kTScalar},
};

}  // namespace

// A NUL ends the expression, as it ends PCP's C string.
int Lexer::Get() {
  if (peek_ != 0) {
    int c = peek_;
    peek_ = 0;
    return c;
  }
  if (pos_ >= in_.size() || in_[pos_] == '\0') return kEof;
  return static_cast<unsigned char>(in_[pos_++]);
}

Token Lexer::Finish(Tok t, int start, std::string text) {
  Token tok;
  tok.tok = t;
  tok.offset = start;
  tok.text = std::move(text);
  return tok;
}

Token Lexer::Error(int start, const char* why, std::string text) {
  error_ = why;
  return Finish(kTError, start, std::move(text));
}

Token Lexer::Next() {
  Token t = Scan();
  if (trace::Appl0()) trace::LexToken(t);
  return t;
}

Token Lexer::Scan() {
  int c = Get();
  while (absl::ascii_isspace(c)) c = Get();
  // PCP marks the token at the character before its read position, which
  // at the end of the input is the last character (or one before an empty
  // expression).
  const int start = static_cast<int>(pos_) - 1;
  if (c == kEof) return Finish(kTEos, start);
  if (absl::ascii_isdigit(c) || c == '.') return Number(start, c);
  if (IsAlpha(c)) return Word(start, c);
  switch (c) {
    case '+': return Finish(kTPlus, start);
    case '-': return Finish(kTMinus, start);
    case '*': return Finish(kTStar, start);
    case '(': return Finish(kTLparen, start);
    case ')': return Finish(kTRparen, start);
    case '?': return Finish(kTQuest, start);
    case ':': return Finish(kTColon, start);
    case ',': return Finish(kTComma, start);
    case '/':
      if (!in_matchinst_) return Finish(kTSlash, start);
      return Quoted(start, '/', true, kTPattern, "unterminated pattern");
    case '"': return Quoted(start, '"', false, kTString, "unterminated STRING");
    case '[': return Quoted(start, ']', true, kTInstName, "unterminated instance name");
    case '<': case '>': case '=': case '!': case '&': case '|':
      return Operator(start, c);
    default:
      return Error(start, "Illegal character", std::string(1, static_cast<char>(c)));
  }
}

Token Lexer::Number(int start, int first) {
  std::string text(1, static_cast<char>(first));
  bool is_double = first == '.';
  for (;;) {
    int c = Get();
    if (!is_double && c == '.') {
      is_double = true;
      text.push_back('.');
      continue;
    }
    if (absl::ascii_isdigit(c)) {
      text.push_back(static_cast<char>(c));
      continue;
    }
    if (c != kEof) Unget(c);
    break;
  }
  if (is_double) return Finish(kTDouble, start, std::move(text));
  errno = 0;
  unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (v > 0xffffffffULL) return Error(start, "Constant value too large", text);
  return Finish(kTInteger, start, std::move(text));
}

Token Lexer::Word(int start, int first) {
  std::string text(1, static_cast<char>(first));
  int c;
  for (;;) {
    c = Get();
    if (IsAlpha(c) || absl::ascii_isdigit(c) || c == '_' || c == '.') {
      text.push_back(static_cast<char>(c));
      continue;
    }
    break;
  }
  if (c != kEof) Unget(c);
  if (c == '(') {
    for (const Function& f : kFunctions) {
      if (text == f.name) {
        if (f.tok == kTMatchinst) in_matchinst_ = true;
        return Finish(f.tok, start, std::move(text));
      }
    }
  }
  if (text == "type") return Finish(kTType, start, text);
  if (text == "semantics") return Finish(kTSemantics, start, text);
  if (text == "units") return Finish(kTUnits, start, text);
  return Finish(kTName, start, std::move(text));
}

// A string, instance name or pattern; with `escapes` a backslash keeps the
// character after it and is itself dropped.
Token Lexer::Quoted(int start, int close, bool escapes, Tok t, const char* unterminated) {
  std::string text;
  bool escape = false;
  for (;;) {
    int c = Get();
    if (c == kEof) return Error(start, unterminated, text);
    if (escapes && escape) {
      escape = false;
      text.push_back(static_cast<char>(c));
      continue;
    }
    if (escapes && c == '\\') {
      escape = true;
      continue;
    }
    if (c == close) break;
    text.push_back(static_cast<char>(c));
  }
  return Finish(t, start, std::move(text));
}

Token Lexer::Operator(int start, int c) {
  int next = Get();
  auto pair = [&](int want, Tok both, Tok single) {
    if (next == want) return Finish(both, start);
    if (next != kEof) Unget(next);
    return Finish(single, start);
  };
  switch (c) {
    case '<': return pair('=', kTLeq, kTLt);
    case '>': return pair('=', kTGeq, kTGt);
    case '=': return pair('=', kTEq, kTAssign);
    case '!': return pair('=', kTNeq, kTNot);
    default: break;
  }
  if (next == c) return Finish(c == '&' ? kTAnd : kTOr, start);
  if (next != kEof) Unget(next);
  return Error(start, "Illegal character", std::string(1, static_cast<char>(c)));
}

}  // namespace pmapi::derive
