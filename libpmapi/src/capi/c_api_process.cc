// c_api_process.cc: the process-wide state of the C layer that PCP keeps in
// plain variables, and the calls that change it: the program name
// (pmProgname, pmSetProgname), the debug options (pmDebugOptions and the
// old bit mask pmDebug, pmSetDebug and friends), the version and pmNoMem.
//
// pmProgname, pmDebug and pmDebugOptions are data symbols of libpcp.so.3;
// pmDebugOptions itself is defined in the ground (core/src/debug_options.cc)
// since every part reads it.
// A program may copy them into itself (a copy relocation) or assign
// pmProgname directly, as PCP's older tools do, so the library reads and
// writes them only through their names, never through a private copy.
#include <strings.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "c_api_internal.h"
#include "notice.h"

extern "C" {
// The initial name is a string literal, as in PCP; callers never write
// through pmProgname.
char* pmProgname = const_cast<char*>("pcp");
int pmDebug = 0;
}

namespace {

// The debug options, in pmdebugoptions_t's order, with the bit each has in
// the old pmDebug mask (0: none).
struct DebugOption {
  const char* name;
  int bit;
};
constexpr DebugOption kDebugOptions[] = {
    {"pdu", 1 << 0},        {"fetch", 1 << 1},      {"profile", 1 << 2},      {"value", 1 << 3},
    {"context", 1 << 4},    {"indom", 1 << 5},      {"pdubuf", 1 << 6},       {"log", 1 << 7},
    {"logmeta", 1 << 8},    {"optfetch", 1 << 9},   {"af", 1 << 10},          {"appl0", 1 << 11},
    {"appl1", 1 << 12},     {"appl2", 1 << 13},     {"pmns", 1 << 14},        {"libpmda", 1 << 15},
    {"timecontrol", 1 << 16}, {"pmc", 1 << 17},     {"derive", 1 << 18},      {"lock", 1 << 19},
    {"interp", 1 << 20},    {"config", 1 << 21},    {"pmapi", 1 << 22},       {"fault", 1 << 23},
    {"auth", 1 << 24},      {"discovery", 1 << 25}, {"attr", 1 << 26},       {"http", 1 << 27},
    {"desperate", 1 << 30}, {"deprecated", 0},      {"exec", 0},              {"labels", 0},
    {"series", 0},          {"libweb", 0},          {"alloc", 0},             {"services", 0},
    {"appl3", 0},           {"appl4", 0},           {"appl5", 0},             {"access", 0},
    {"qa", 0},              {"search", 0},          {"query", 0},             {"compress", 0},
    {"dev0", 0},            {"dev1", 0},            {"dev2", 0},              {"pmlc", 0},
    {"appl6", 0},           {"appl7", 0},           {"appl8", 0},             {"appl9", 0},
    {"tls", 0}};
constexpr size_t kNumDebugOptions = sizeof(kDebugOptions) / sizeof(kDebugOptions[0]);
static_assert(kNumDebugOptions == sizeof(pmdebugoptions_t) / sizeof(int));

int* DebugFlags() { return reinterpret_cast<int*>(&pmDebugOptions); }

// Applies `spec` as PCP's debug() does: a comma-separated list of option
// names (any case), "all", or decimal numbers in the old bit-mask form
// (-1: every bit). `on` sets, otherwise clears. Either every item is good
// and everything is applied (the options and the pmDebug bits), or nothing
// changes and PM_ERR_CONV is returned. `bits` receives the old-style mask.
int ChangeDebug(const char* spec, bool on, int* bits) {
  *bits = 0;
  if (spec == nullptr) return 0;
  std::vector<int> state(DebugFlags(), DebugFlags() + kNumDebugOptions);
  int mask = 0;
  for (const char* p = spec; *p != '\0';) {
    char* end = nullptr;
    long number = std::strtol(p, &end, 10);
    if (end > p) {
      mask = number == -1 ? INT_MAX : mask | static_cast<int>(number);
      for (size_t i = 0; i < kNumDebugOptions; ++i) {
        if (mask & kDebugOptions[i].bit) state[i] = on;
      }
      if (*end == '\0') break;
      if (*end != ',') return PM_ERR_CONV;
      p = end + 1;
      continue;
    }
    const char* stop = std::strchr(p, ',');
    if (stop == nullptr) stop = p + std::strlen(p);
    std::string name(p, stop);
    if (strcasecmp(name.c_str(), "all") == 0) {
      mask |= INT_MAX;
      for (size_t i = 0; i < kNumDebugOptions; ++i) state[i] = on;
    } else {
      size_t i = 0;
      while (i < kNumDebugOptions && strcasecmp(name.c_str(), kDebugOptions[i].name) != 0) ++i;
      if (i == kNumDebugOptions) return PM_ERR_CONV;
      mask |= kDebugOptions[i].bit;
      state[i] = on;
    }
    p = *stop == ',' ? stop + 1 : stop;
  }
  std::copy(state.begin(), state.end(), DebugFlags());
  if (on) {
    pmDebug |= mask;
  } else {
    pmDebug &= ~mask;
  }
  *bits = mask;
  return 0;
}

// The library's own notices print as pmNotifyErr prints them.
void PrintNotice(int priority, const char* text) { pmNotifyErr(priority, "%s\n", text); }
[[maybe_unused]] const bool notice_handler_installed = (pmapi::SetNoticeHandler(PrintNotice), true);

}  // namespace

extern "C" {

// As PCP: pmProgname points into the caller's string, past its last '/'.
void pmSetProgname(const char* name) {
  if (name == nullptr) {
    pmProgname = const_cast<char*>("pcp");
    return;
  }
  const char* slash = std::strrchr(name, '/');
  pmProgname = const_cast<char*>(slash == nullptr ? name : slash + 1);
}

char* pmGetProgname(void) { return pmProgname; }

int __pmSetProgname(const char* name) {
  pmSetProgname(name);
  return 0;
}

// The PCP release whose interface this library provides, as PCP's own
// programs compare it with PM_VERSION_CURRENT.
int pmGetVersion(void) { return PM_VERSION_CURRENT; }

int pmPathSeparator(void) { return '/'; }

int pmSetDebug(const char* flags) {
  int bits;
  return ChangeDebug(flags, true, &bits);
}

int pmClearDebug(const char* flags) {
  int bits;
  return ChangeDebug(flags, false, &bits);
}

// The old interface: sets the options of `spec` and returns the old-style
// mask they stand for (or PM_ERR_CONV).
int __pmParseDebug(const char* spec) {
  if (pmDebugOptions.deprecated) std::fprintf(stderr, "Warning: deprecated __pmParseDebug() called\n");
  int bits;
  int sts = ChangeDebug(spec, true, &bits);
  return sts < 0 ? sts : bits;
}

// Adds (never clears) the options whose old bits are set in `value`.
void __pmSetDebugBits(int value) {
  if (pmDebugOptions.deprecated) std::fprintf(stderr, "Warning: deprecated __pmSetDebugBits() called\n");
  for (const DebugOption& o : kDebugOptions) {
    if (value & o.bit) (void)pmSetDebug(o.name);
  }
}

void pmNoMem(const char* where, size_t size, int fatal) {
  std::fprintf(stderr, "%s: malloc(%zu) failed: %s\n", where, size, std::strerror(ENOMEM));
  if (fatal == PM_FATAL_ERR) std::exit(1);
}

}  // extern "C"
