// pdu_counts.cc: the counts of PDUs this process has sent and received by
// type, kept as libpcp keeps them: two arrays indexed by type minus
// kPduError, reached through the data symbols __pmPDUCntIn and
// __pmPDUCntOut, which a program (pmprobe -V) reads and may point at
// arrays of its own. Counts are updated without a lock, as libpcp's are
// (they are diagnostics), but each increment is atomic: connections on
// many threads count at once.
#include "pdu_counts.h"

#include <atomic>

#include "pdu_format.h"

namespace {
unsigned int received[kPduTypeCount];
unsigned int sent[kPduTypeCount];
}  // namespace

extern "C" {
unsigned int* __pmPDUCntIn = received;
unsigned int* __pmPDUCntOut = sent;
}

namespace pmapi {

void CountPdu(int type, bool out) {
  if (type < kPduError || type >= kPduError + kPduTypeCount) return;
  unsigned int* counts = out ? __pmPDUCntOut : __pmPDUCntIn;
  std::atomic_ref<unsigned int>(counts[type - kPduError]).fetch_add(1, std::memory_order_relaxed);
}

}  // namespace pmapi
