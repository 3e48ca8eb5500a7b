// c_pmda_events.cc: pmdaEvent* for C agents, over the library's
// EventArrays (pmapi/events.h). The arrays are process-wide, as in PCP;
// the address pmdaEventGetAddr returns is the packed array itself, valid
// until the array next changes.
#include <mutex>

#include "c_pmda_internal.h"
#include "pmapi/errors.h"
#include "pmapi/events.h"

namespace pmapi {
namespace {

std::mutex& EventLock() {
  static auto* mu = new std::mutex;
  return *mu;
}

EventArrays& Arrays() {
  static auto* arrays = new EventArrays;
  return *arrays;
}

int Code(const absl::Status& s) { return s.ok() ? 0 : PcpCode(s); }

// Converts a C parameter value of `type`; PM_ERR_TYPE for what cannot be
// a parameter.
int ToAtom(int type, const pmAtomValue* avp, AtomValue* out) {
  if (avp == nullptr) return PM_ERR_GENERIC;
  switch (type) {
    case PM_TYPE_32:
    case PM_TYPE_U32:
      out->l = avp->l;
      return 0;
    case PM_TYPE_64:
    case PM_TYPE_U64:
      out->ll = avp->ll;
      return 0;
    case PM_TYPE_FLOAT:
      out->f = avp->f;
      return 0;
    case PM_TYPE_DOUBLE:
      out->d = avp->d;
      return 0;
    case PM_TYPE_STRING:
      out->bytes = avp->cp ? avp->cp : "";
      return 0;
    case PM_TYPE_AGGREGATE:
      if (avp->vbp == nullptr || avp->vbp->vlen < PM_VAL_HDR_SIZE) return PM_ERR_TYPE;
      out->bytes.assign(avp->vbp->vbuf, avp->vbp->vlen - PM_VAL_HDR_SIZE);
      return 0;
    default:
      return PM_ERR_TYPE;
  }
}

int AddParam(int idx, pmID pmid, int type, pmAtomValue* avp, bool highres) {
  AtomValue atom;
  if (int sts = ToAtom(type, avp, &atom); sts < 0) return sts;
  std::lock_guard<std::mutex> lock(EventLock());
  const PmID id{pmid};
  return Code(highres ? Arrays().AddHighResParam(idx, id, type, atom)
                      : Arrays().AddParam(idx, id, type, atom));
}

template <typename T>
T* Address(const absl::StatusOr<std::span<const uint8_t>>& block) {
  if (!block.ok()) return nullptr;
  return reinterpret_cast<T*>(const_cast<uint8_t*>(block->data()));
}

}  // namespace
}  // namespace pmapi

extern "C" {

int pmdaEventNewArray(void) {
  std::lock_guard<std::mutex> lock(pmapi::EventLock());
  return pmapi::Arrays().NewArray();
}

int pmdaEventResetArray(int idx) {
  std::lock_guard<std::mutex> lock(pmapi::EventLock());
  return pmapi::Code(pmapi::Arrays().ResetArray(idx));
}

int pmdaEventReleaseArray(int idx) {
  std::lock_guard<std::mutex> lock(pmapi::EventLock());
  return pmapi::Code(pmapi::Arrays().ReleaseArray(idx));
}

int pmdaEventAddRecord(int idx, struct timeval* tp, int flags) {
  if (tp == nullptr) return PM_ERR_GENERIC;
  std::lock_guard<std::mutex> lock(pmapi::EventLock());
  return pmapi::Code(pmapi::Arrays().AddRecord(idx, tp->tv_sec, tp->tv_usec, flags));
}

int pmdaEventAddMissedRecord(int idx, struct timeval* tp, int nmissed) {
  if (tp == nullptr) return PM_ERR_GENERIC;
  std::lock_guard<std::mutex> lock(pmapi::EventLock());
  return pmapi::Code(pmapi::Arrays().AddMissedRecord(idx, tp->tv_sec, tp->tv_usec, nmissed));
}

int pmdaEventAddParam(int idx, pmID pmid, int type, pmAtomValue* avp) {
  return pmapi::AddParam(idx, pmid, type, avp, false);
}

pmEventArray* pmdaEventGetAddr(int idx) {
  std::lock_guard<std::mutex> lock(pmapi::EventLock());
  return pmapi::Address<pmEventArray>(pmapi::Arrays().GetAddr(idx));
}

int pmdaEventNewHighResArray(void) {
  std::lock_guard<std::mutex> lock(pmapi::EventLock());
  return pmapi::Arrays().NewHighResArray();
}

int pmdaEventResetHighResArray(int idx) { return pmdaEventResetArray(idx); }

int pmdaEventReleaseHighResArray(int idx) { return pmdaEventReleaseArray(idx); }

int pmdaEventAddHighResRecord(int idx, struct timespec* tp, int flags) {
  if (tp == nullptr) return PM_ERR_GENERIC;
  std::lock_guard<std::mutex> lock(pmapi::EventLock());
  return pmapi::Code(pmapi::Arrays().AddHighResRecord(idx, tp->tv_sec, tp->tv_nsec, flags));
}

int pmdaEventAddHighResMissedRecord(int idx, struct timespec* tp, int nmissed) {
  if (tp == nullptr) return PM_ERR_GENERIC;
  std::lock_guard<std::mutex> lock(pmapi::EventLock());
  return pmapi::Code(pmapi::Arrays().AddHighResMissedRecord(idx, tp->tv_sec, tp->tv_nsec, nmissed));
}

int pmdaEventAddHighResParam(int idx, pmID pmid, int type, pmAtomValue* avp) {
  return pmapi::AddParam(idx, pmid, type, avp, true);
}

int pmdaEventHighResAddParam(int idx, pmID pmid, int type, pmAtomValue* avp) {
  return pmapi::AddParam(idx, pmid, type, avp, true);
}

pmHighResEventArray* pmdaEventGetHighResAddr(int idx) {
  std::lock_guard<std::mutex> lock(pmapi::EventLock());
  return pmapi::Address<pmHighResEventArray>(pmapi::Arrays().GetHighResAddr(idx));
}

pmHighResEventArray* pmdaEventHighResGetAddr(int idx) { return pmdaEventGetHighResAddr(idx); }

}  // extern "C"
