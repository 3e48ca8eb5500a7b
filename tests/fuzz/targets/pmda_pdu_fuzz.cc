// Fuzz target: what a daemon agent receives from pmcd. The input is run
// through every agent-side request decoder, and then, as a stream of PDUs,
// through a C agent's request loop (__pmdaMainPDU): the decoders, the
// handlers of <pcp/pmda.h> they call and the replies they encode. Replies
// go to /dev/null.
#include <fcntl.h>
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "c_pmda_internal.h"
#include "c_pmda_link.h"
#include "fuzz_support.h"
#include "pdu_codec.h"

namespace {

using Bytes = std::span<const uint8_t>;

pmdaInstid colours[] = {{0, const_cast<char*>("red")}, {1, const_cast<char*>("green")}};
pmdaIndom indoms[] = {{0, 2, colours}};
pmdaMetric metrics[] = {
    {nullptr, {PMDA_PMID(0, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {nullptr, {PMDA_PMID(0, 1), PM_TYPE_32, 0, PM_SEM_COUNTER, PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)}},
    {nullptr, {PMDA_PMID(1, 2), PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
};

int Value(pmdaMetric* m, unsigned int inst, pmAtomValue* av) {
  switch (pmID_item(m->m_desc.pmid)) {
    case 0: av->ul = 42; return 1;
    case 1: av->l = static_cast<int>(inst) + 1; return 1;
    default: av->cp = const_cast<char*>("text"); return 1;
  }
}

pmdaInterface* Agent() {
  static pmdaInterface* dp = [] {
    auto* d = new pmdaInterface{};
    pmdaDaemon(d, PMDA_INTERFACE_7, "fuzz", 42, nullptr, nullptr);
    pmdaSetFetchCallBack(d, Value);
    pmdaInit(d, indoms, 1, metrics, 3);
    return d;
  }();
  return dp;
}

uint64_t Decoders(Bytes pdu) {
  uint64_t h = 0;
  if (auto p = pmapi::DecodeProfileReq(pdu); p.ok()) {
    for (const pmapi::InDomProfile& e : p->profile.indoms)
      for (pmapi::Inst i : e.insts)
        h += static_cast<uint64_t>(pmapi::ToPcp(i)) + pmapi::ToPcp(e.indom);
  }
  std::vector<pmapi::PmID> ids;
  if (auto f = pmapi::DecodeFetchReq(pdu, &ids); f.ok())
    for (pmapi::PmID id : ids) h += pmapi::ToPcp(id);
  if (auto d = pmapi::DecodeDescReq(pdu); d.ok()) h += pmapi::ToPcp(*d);
  if (auto i = pmapi::DecodeInstanceReq(pdu); i.ok())
    h += fuzz::Digest(i->name) + pmapi::ToPcp(i->indom);
  if (auto t = pmapi::DecodeIdentReq(pmapi::kPduTextReq, pdu); t.ok()) h += t->ident;
  if (auto l = pmapi::DecodeIdentReq(pmapi::kPduLabelReq, pdu); l.ok()) h += l->ident;
  if (auto n = pmapi::DecodeNameReq(pdu); n.ok()) h += fuzz::Digest(n->name);
  if (auto a = pmapi::DecodeAttr(pdu); a.ok()) h += fuzz::Digest(a->value);
  if (auto c = pmapi::DecodeCredsInfo(pdu); c.ok()) h += c->flags;
  return h;
}

// Feeds `stream` to the agent's request loop until it ends.
void Loop(Bytes stream) {
  int in = memfd_create("pmda_pdu_fuzz", 0);
  int out = open("/dev/null", O_WRONLY);
  if (in < 0 || out < 0) __builtin_trap();
  if (!stream.empty() && write(in, stream.data(), stream.size()) != static_cast<ssize_t>(stream.size()))
    __builtin_trap();
  lseek(in, 0, SEEK_SET);
  pmdaInterface* dp = Agent();
  pmdaExt* ext = dp->version.any.ext;
  ext->e_infd = in;  // the loop reads what the agent's descriptors name
  ext->e_outfd = out;
  while (__pmdaMainPDU(dp) >= 0) {
  }
  ext->e_infd = ext->e_outfd = -1;
  pmapi::CPmdaStateOf(ext)->link.reset();
  close(in);
  close(out);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes input(data, size);
  fuzz::Consume(Decoders(input));
  Loop(input);
  return 0;
}
