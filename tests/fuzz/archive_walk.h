// archive_walk.h: drives an archive through everything a client can ask of
// an archive context, for fuzzing and corruption sweeps: names, PMIDs,
// descriptors, instance domains, help text, labels, FORW and BACK fetches of
// every metric, record-wise fetches, and INTERP fetches at several times.
//
// Every loop has a cap, so a corrupt archive can make the walk end early but
// never run long. The walk only reads; what it finds is summarised in a
// digest so the results are used (and compared between runs if wanted).
//
// Example:
//   fuzz::ArchiveWalk w = fuzz::WalkArchive("/tmp/x/archive");
//   if (!w.opened) std::printf("open failed: %d\n", w.open_code);
#ifndef PMAPI_TESTS_FUZZ_ARCHIVE_WALK_H_
#define PMAPI_TESTS_FUZZ_ARCHIVE_WALK_H_

#include <cstdint>
#include <string>

namespace fuzz {

struct ArchiveWalk {
  bool opened = false;
  int open_code = 0;      // PCP code of the open failure, if any
  int names = 0;          // metric names traversed
  int fetches = 0;        // successful fetches, all modes
  int errors = 0;         // calls that returned an error after the open
  uint64_t digest = 0;    // of everything read
};

// Caps on the walk (kept small: the walk runs once per fuzz input and per
// corrupted archive).
struct WalkLimits {
  int max_names = 400;
  int max_records = 400;
  int interp_steps = 8;
};

// Walks the archive `spec` (as Context::OpenArchive takes it). REQUIRES:
// nothing; any file contents are allowed.
ArchiveWalk WalkArchive(const std::string& spec, const WalkLimits& limits = {});

}  // namespace fuzz

#endif  // PMAPI_TESTS_FUZZ_ARCHIVE_WALK_H_
