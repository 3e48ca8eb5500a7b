// stress_walks.h: what the thread stress tests do to a context, through the
// C++ API (pmapi::Context) and through the C API (<pcp/pmapi.h>, the calling
// thread's current context), and a driver that runs the C API from many
// threads at once.
//
// A walk reads names under a root, their PMIDs, descriptors, other names,
// one-line help and labels, fetches every metric, reads the instances of
// some instance domains, and folds
// the parts that must not change from one walk to the next into digests:
// all of it for an archive, only the names, descriptors and the listed
// metrics' values and instances for a live source (whose other values
// move). Two walks of the same source must give the same digests, whichever
// thread does them and whatever the other threads do meanwhile.
#ifndef PMAPI_TESTS_ROBUST_STRESS_WALKS_H_
#define PMAPI_TESTS_ROBUST_STRESS_WALKS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "pmapi/context.h"

namespace stress {

struct WalkSpec {
  std::string root;                  // PMNS subtree ("" for all names)
  bool archive = false;              // fetch forwards from the start; digest every value
  std::vector<std::string> stable;   // live sources: metrics whose values and instances never change
  int fetches = 1;                   // fetches of all the metrics per walk
};

struct Walk {
  // Digests of names and descriptors, of the other names, help and labels,
  // of the fetched values, and of the instances.
  uint64_t names_digest = 0;
  uint64_t extras_digest = 0;
  uint64_t values_digest = 0;
  uint64_t indoms_digest = 0;
  int names = 0;
  int fetched = 0;  // successful fetches
  int errors = 0;   // calls that failed
  bool operator==(const Walk&) const = default;
};

// Walks `ctx` through the C++ API.
Walk WalkContext(pmapi::Context& ctx, const WalkSpec& spec);

// Walks the calling thread's current C API context.
Walk WalkCurrent(const WalkSpec& spec);

// A source for pmNewContext and what one walk of it must give.
struct CSource {
  int type = 0;       // PM_CONTEXT_HOST, _ARCHIVE or _LOCAL
  std::string name;   // pmNewContext's name argument
  WalkSpec spec;
  Walk expected;      // filled by ExpectC
};

// Opens `source` alone on the calling thread, walks it and sets
// source->expected. Returns false if it cannot be opened, finds no names or
// fetches nothing, or (live sources) any fetch failed.
bool ExpectC(CSource* source);

struct CStress {
  int walks = 0;
  int mismatches = 0;     // walks that differed from the expected one
  int handle_errors = 0;  // current-context or handle rule broken
  int contexts = 0;       // pmNewContext calls that succeeded
};

// Runs `threads` threads for `rounds` rounds. Each thread keeps one C API
// context of every source, switching among them with pmUseContext, and in
// every round also opens, walks and destroys a short-lived one. It checks
// that a new thread has no current context, that pmNewContext and
// pmUseContext change only the calling thread's current context, that no
// handle is ever handed out twice, and that a destroyed handle is gone.
CStress RunCStress(const std::vector<CSource>& sources, int threads, int rounds);

// PMAPI_STRESS_THREADS / PMAPI_STRESS_ROUNDS, else the defaults given.
int EnvCount(const char* name, int fallback);

}  // namespace stress

#endif  // PMAPI_TESTS_ROBUST_STRESS_WALKS_H_
