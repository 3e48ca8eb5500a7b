// misc.cc: libpcp's internal calls for diagnostics and small conversions:
// the error table and PDU counts as PCP prints them, PDU type names, lists
// of metric names, values read from text, the client identity a program
// gives pmcd, and libpcp's internal state word.
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "pcp_internal.h"
#include "pdu_counts.h"
#include "pmapi/errors.h"
#include "pmapi/value_text.h"

namespace {

constexpr int kPduFirst = 0x7000;  // the ERROR PDU

constexpr const char* kPduTypeNames[] = {
    "ERROR",        "RESULT",     "PROFILE",   "FETCH",      "DESC_REQ",      "DESC",
    "INSTANCE_REQ", "INSTANCE",   "TEXT_REQ",  "TEXT",       "CONTROL_REQ",   nullptr,
    "CREDS",        "PMNS_IDS",   "PMNS_NAMES", "PMNS_CHILD", "PMNS_TRAVERSE", "ATTR",
    "LABEL_REQ",    "LABEL",      "HIGHRES_FETCH", "HIGHRES_RESULT", "DESC_IDS", "DESCS"};
static_assert(sizeof(kPduTypeNames) / sizeof(kPduTypeNames[0]) == kPduTypeCount);

// pmlogger's PDUs, which share the numbering but sit apart.
struct LoggerPdu {
  int type;
  const char* name;
};
constexpr LoggerPdu kLoggerPdus[] = {
    {0x8000, "LOG_CONTROL"}, {0x8001, "LOG_STATUS_V2"}, {0x8002, "LOG_REQUEST"}, {0x8003, "LOG_STATUS"}};

int state = 0;  // PM_STATE_APPL

// The name and address of this host as pmcd.client.whoami shows them:
// the first address of the host's name that has a name of its own.
std::string WhoAmI() {
  char host[HOST_NAME_MAX + 1] = "";
  (void)gethostname(host, sizeof host);
  std::string name = host;
  std::string address;
  struct addrinfo hints = {};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  struct addrinfo* list = nullptr;
  if (getaddrinfo(host, nullptr, &hints, &list) != 0) return name;
  for (struct addrinfo* a = list; a != nullptr; a = a->ai_next) {
    char found[NI_MAXHOST];
    if (getnameinfo(a->ai_addr, a->ai_addrlen, found, sizeof found, nullptr, 0, NI_NAMEREQD) != 0) continue;
    name = found;
    char numeric[NI_MAXHOST];
    if (getnameinfo(a->ai_addr, a->ai_addrlen, numeric, sizeof numeric, nullptr, 0, NI_NUMERICHOST) == 0) {
      address = numeric;
    }
    break;
  }
  freeaddrinfo(list);
  return address.empty() ? name : name + " (" + address + ")";
}

// One line per node, children indented four spaces a level below their
// parent: the name in 16 columns; with verbosity > 0 a leaf's PMID as a
// number, as domain.cluster.item and in hex; with verbosity > 1 the node's
// address first and its links after.
void DumpNode(FILE* f, int level, const __pmnsNode* node, int verbosity) {
  for (; node != nullptr; node = node->next) {
    if (verbosity > 1) std::fprintf(f, "%p", static_cast<const void*>(node));
    for (int i = 0; i < level; i++) std::fputs("    ", f);
    std::fprintf(f, " %-16.16s", node->name);
    if (verbosity > 0 && node->first == nullptr) {
      std::fprintf(f, " %d %u.%u.%u 0x%08x", static_cast<int>(node->pmid), pmID_domain(node->pmid),
                   pmID_cluster(node->pmid), pmID_item(node->pmid), node->pmid);
    }
    if (verbosity > 1) {
      auto link = [f](const char* what, const void* p) {
        if (p != nullptr) {
          std::fprintf(f, "%s%p", what, p);
        } else {
          std::fprintf(f, "%s<null>", what);
        }
      };
      link("\t[first: ", node->first);
      link(" next: ", node->next);
      link(" parent: ", node->parent);
      link(" hash: ", node->hash);
    }
    std::fputc('\n', f);
    DumpNode(f, level + 1, node->first, verbosity);
  }
}

}  // namespace

extern "C" {

void __pmDumpNameNode(FILE* f, const __pmnsNode* node, int verbosity) { DumpNode(f, 0, node, verbosity); }

void __pmSetInternalState(int value) { state = value; }
int __pmGetInternalState(void) { return state; }

void __pmDumpErrTab(FILE* f) {
  std::fprintf(f, "  Code  Symbolic Name          Message\n");
  for (const pmapi::ErrorEntry& e : pmapi::ErrorTable()) std::fprintf(f, "%6d  %-22s %s\n", e.code, e.name, e.text);
}

char* __pmPDUTypeStr_r(int type, char* buf, int buflen) {
  const char* name = nullptr;
  if (type >= kPduFirst && type < kPduFirst + kPduTypeCount) name = kPduTypeNames[type - kPduFirst];
  for (const LoggerPdu& p : kLoggerPdus) {
    if (p.type == type) name = p.name;
  }
  if (name != nullptr) {
    std::snprintf(buf, static_cast<size_t>(buflen), "%s", name);
  } else {
    std::snprintf(buf, static_cast<size_t>(buflen), "TYPE-%d?", type);
  }
  return buf;
}

const char* __pmPDUTypeStr(int type) {
  static thread_local char buf[20];
  return __pmPDUTypeStr_r(type, buf, sizeof buf);
}

void __pmDumpPDUCnt(FILE* f) {
  unsigned int in = 0, out = 0;
  bool any = false;
  for (int i = 0; i < kPduTypeCount; i++) any = any || __pmPDUCntIn[i] != 0 || __pmPDUCntOut[i] != 0;
  if (!any) {
    std::fprintf(f, "PDU stats ... no PDU activity\n");
    return;
  }
  std::fprintf(f, "PDU stats ...\n");
  std::fprintf(f, "%-20.20s %6s %6s\n", "Type", "Xmit", "Recv");
  for (int i = 0; i < kPduTypeCount; i++) {
    in += __pmPDUCntIn[i];
    out += __pmPDUCntOut[i];
    if (__pmPDUCntIn[i] == 0 && __pmPDUCntOut[i] == 0) continue;
    std::fprintf(f, "%-20.20s %6d %6d\n", __pmPDUTypeStr(kPduFirst + i), __pmPDUCntOut[i], __pmPDUCntIn[i]);
  }
  std::fprintf(f, "%-20.20s %6d %6d\n", "Total", out, in);
}

void __pmPrintMetricNames(FILE* f, int numnames, char** names, char* sep) {
  if (numnames < 1) {
    std::fprintf(f, "<nonames>");
    return;
  }
  for (int i = 0; i < numnames; i++) std::fprintf(f, "%s%s", i == 0 ? "" : sep, names[i]);
}

// The value `buf` denotes as `type`: 0; PM_ERR_TYPE when text is left
// over; -ERANGE when out of range; -ENOMEM for a string not copied. A
// STRING is a malloc'd copy in avp->cp.
int __pmStringValue(const char* buf, pmAtomValue* avp, int type) {
  pmapi::ValueText v = pmapi::ParseValueText(buf, type);
  if (v.error == pmapi::ValueTextError::kIncompatible) return PM_ERR_TYPE;
  if (v.error == pmapi::ValueTextError::kOutOfRange) return -ERANGE;
  switch (type) {
    case PM_TYPE_32: avp->l = v.atom.l; break;
    case PM_TYPE_U32: avp->ul = v.atom.ul; break;
    case PM_TYPE_64: avp->ll = v.atom.ll; break;
    case PM_TYPE_U64: avp->ull = v.atom.ull; break;
    case PM_TYPE_FLOAT: avp->f = v.atom.f; break;
    case PM_TYPE_DOUBLE: avp->d = v.atom.d; break;
    case PM_TYPE_STRING:
      avp->cp = strdup(buf);
      if (avp->cp == nullptr) return -ENOMEM;
      break;
    default: break;
  }
  return 0;
}

// The program's words separated by blanks (malloc'd), or null.
char* __pmGetClientId(int argc, char** argv) {
  std::string id;
  for (int i = 0; i < argc; i++) id += std::string(i == 0 ? "" : " ") + argv[i];
  if (argc <= 0) return nullptr;
  return strdup(id.c_str());
}

// Stores "HOST (ADDRESS) ID" in pmcd.client.whoami through the current
// context, so that pmcd shows who this client is.
int __pmSetClientId(const char* id) {
  if (pmWhichContext() < 0) return PM_ERR_NOCONTEXT;
  const char* name = "pmcd.client.whoami";
  pmID pmid;
  int sts = pmLookupName(1, &name, &pmid);
  if (sts < 0) return sts;
  std::string value = WhoAmI() + " " + id;
  size_t size = PM_VAL_HDR_SIZE + value.size() + 1;
  auto* block = static_cast<pmValueBlock*>(std::calloc(1, size));
  if (block == nullptr) return -ENOMEM;
  block->vtype = PM_TYPE_STRING;
  block->vlen = static_cast<unsigned int>(size);
  std::memcpy(block->vbuf, value.c_str(), value.size() + 1);
  pmValueSet set = {};
  set.pmid = pmid;
  set.numval = 1;
  set.valfmt = PM_VAL_SPTR;
  set.vlist[0].inst = PM_IN_NULL;
  set.vlist[0].value.pval = block;
  pmResult store = {};
  store.numpmid = 1;
  store.vset[0] = &set;
  sts = pmStore(&store);
  std::free(block);
  return sts;
}

int __pmSetClientIdArgv(int argc, char** argv) {
  char* id = __pmGetClientId(argc, argv);
  if (id == nullptr) return -ENOMEM;
  int sts = __pmSetClientId(id);
  std::free(id);
  return sts;
}

}  // extern "C"
