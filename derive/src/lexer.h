// lexer.h: the tokens of the derived metric expression language, read one
// at a time as PCP's scanner reads them (including where it says a token
// starts, which its error caret shows).
#ifndef PMAPI_DERIVE_LEXER_H_
#define PMAPI_DERIVE_LEXER_H_

#include <optional>
#include <string>
#include <string_view>

namespace pmapi::derive {

enum Tok {
  kTError,
  kTEos,
  kTPlus,
  kTMinus,
  kTStar,
  kTSlash,
  kTQuest,
  kTColon,
  kTLparen,
  kTRparen,
  kTLt,
  kTLeq,
  kTEq,
  kTGeq,
  kTGt,
  kTNeq,
  kTAnd,
  kTOr,
  kTNot,
  kTAssign,
  kTComma,
  kTInteger,
  kTDouble,
  kTName,
  kTString,
  kTInstName,
  kTPattern,
  kTType,
  kTSemantics,
  kTUnits,
  // functions (a name directly followed by '(')
  kTAvg,
  kTCount,
  kTDelta,
  kTMax,
  kTMin,
  kTSum,
  kTAnon,
  kTRate,
  kTInstant,
  kTMkconst,
  kTRescale,
  kTDefined,
  kTMatchinst,
  kTScalar,
};

struct Token {
  Tok tok = kTEos;
  std::string text;  // names, numbers, strings (unquoted), patterns; for
                     // an error, what had been read of it
  int offset = 0;    // where PCP's scanner says the token starts
};

class Lexer {
 public:
  explicit Lexer(std::string_view input) : in_(input) {}

  Token Next();
  // The scanner's own diagnostic for a kTError token.
  const std::optional<std::string>& error() const { return error_; }
  // Inside matchinst( ... ) a '/' starts a pattern.
  void set_in_matchinst(bool on) { in_matchinst_ = on; }

 private:
  Token Scan();
  int Get();
  void Unget(int c) { peek_ = c; }
  Token Finish(Tok t, int start, std::string text = "");
  // An error token; `text` is what PCP's scanner had read of it.
  Token Error(int start, const char* why, std::string text = "");
  Token Word(int start, int first);
  Token Number(int start, int first);
  Token Quoted(int start, int close, bool escapes, Tok t, const char* unterminated);
  Token Operator(int start, int c);

  std::string_view in_;
  size_t pos_ = 0;
  int peek_ = 0;
  bool in_matchinst_ = false;
  std::optional<std::string> error_;
};

}  // namespace pmapi::derive

#endif  // PMAPI_DERIVE_LEXER_H_
