// c_pmda_queues.cc: event queues and their clients for C agents
// (pmdaEventNewQueue ... pmdaEventSetAccess). An agent appends opaque
// event buffers to named queues; each client context that fetches a queue
// is handed, through the agent's decoder, the events queued since its
// previous fetch (PCP's rules, kept exactly: a context's read position is
// cleared after each fetch; an event is freed once every client counted
// when it was queued has passed it; a queue over its memory limit drops
// its oldest events; a context sees a queue's events only when it has
// been granted access or given a filter).
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <sys/time.h>
#include <syslog.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct Event {
  Event* prev = nullptr;
  Event* next = nullptr;
  timeval time{};
  int count = 0;  // clients yet to pass it
  std::vector<char> data;  // the bytes, then a NUL
  size_t size() const { return data.size() - 1; }
};

struct Queue {
  std::string name;
  size_t maxmemory = 0;
  bool inuse = false;
  bool shutdown = false;
  int eventarray = -1;
  uint32_t numclients = 0;
  uint32_t count = 0;  // events appended
  uint64_t bytes = 0;  // bytes appended
  uint64_t qsize = 0;  // bytes queued
  Event* head = nullptr;
  Event* tail = nullptr;

  void Remove(Event* e) {
    (e->prev ? e->prev->next : head) = e->next;
    (e->next ? e->next->prev : tail) = e->prev;
    qsize -= e->size();
    delete e;
  }
  void Push(Event* e) {
    e->prev = tail;
    (tail ? tail->next : head) = e;
    tail = e;
    qsize += e->size();
  }
};

struct ClientQueue {
  bool active = false;
  int missed = 0;
  bool access = false;
  Event* last = nullptr;
  void* filter = nullptr;
  pmdaEventApplyFilterCallBack apply = nullptr;
  pmdaEventReleaseFilterCallBack release = nullptr;
};

struct Client {
  int context = 0;
  bool inuse = false;
  std::vector<ClientQueue> queues;
};

std::recursive_mutex mu;
std::vector<Queue>& Queues() {
  static auto* q = new std::vector<Queue>;
  return *q;
}
std::vector<Client>& Clients() {
  static auto* c = new std::vector<Client>;
  return *c;
}

Queue* FindQueue(int handle) {
  std::vector<Queue>& qs = Queues();
  if (handle < 0 || static_cast<size_t>(handle) >= qs.size() || !qs[handle].inuse) return nullptr;
  return &qs[handle];
}

Client* FindClient(int context) {
  for (Client& c : Clients())
    if (c.inuse && c.context == context) return &c;
  return nullptr;
}

// The client's state for a queue; made on demand when `create`.
ClientQueue* FindClientQueue(int context, int handle, bool create) {
  Client* c = FindClient(context);
  if (c == nullptr || FindQueue(handle) == nullptr) return nullptr;
  if (static_cast<size_t>(handle) < c->queues.size()) return &c->queues[handle];
  if (!create) return nullptr;
  c->queues.resize(static_cast<size_t>(handle) + 1);
  return &c->queues[handle];
}

// Drops the oldest events until `bytes` more fit; a client whose read
// position was a dropped event moves on and counts a miss.
void MakeRoom(int handle, Queue* q, size_t bytes) {
  while (q->head != nullptr && bytes > q->maxmemory - q->qsize) {
    Event* e = q->head;
    for (Client& c : Clients()) {
      if (!c.inuse || static_cast<size_t>(handle) >= c.queues.size()) continue;
      ClientQueue& cq = c.queues[handle];
      if (cq.active && cq.last == e) {
        cq.last = e->next;
        cq.missed++;
      }
    }
    q->Remove(e);
  }
}

// Non-zero when the client may not see this event.
int Cull(const ClientQueue& cq, Event* e) {
  if (cq.filter != nullptr) return cq.apply(cq.filter, e->data.data(), e->size());
  return cq.access ? 0 : -PM_ERR_PERMISSION;
}

int Fetch(Queue* q, ClientQueue* cq, pmAtomValue* atom, pmdaEventDecodeCallBack decode, void* data) {
  if (!cq->active) {
    cq->active = true;
    q->numclients++;
  }
  Event* e = cq->last != nullptr ? cq->last : q->head;
  int records = 0, sts = 0;
  pmdaEventResetArray(q->eventarray);
  while (e != nullptr) {
    if (Cull(*cq, e) == 0) {
      if ((sts = decode(q->eventarray, e->data.data(), e->size(), &e->time, data)) < 0) break;
      records += sts;
      sts = 0;
    }
    Event* next = e->next;
    if (--e->count <= 0) q->Remove(e);
    e = next;
  }
  if (sts == 0) {
    // the event last seen is counted in `missed` too
    int missed = cq->missed - 1;
    cq->missed = 0;
    if (missed > 0) {
      timeval now;
      gettimeofday(&now, nullptr);
      sts = pmdaEventAddMissedRecord(q->eventarray, &now, missed);
      records++;
    }
  }
  cq->last = nullptr;
  atom->vbp = records ? reinterpret_cast<pmValueBlock*>(pmdaEventGetAddr(q->eventarray)) : nullptr;
  return sts;
}

void Release(Queue* q) {
  pmdaEventReleaseArray(q->eventarray);
  while (q->head != nullptr) q->Remove(q->head);
  *q = Queue{};
}

// A client context has gone: its filter and its hold on queued events.
void Forget(int handle, ClientQueue* cq) {
  if (cq->release != nullptr) cq->release(cq->filter);
  Queue* q = FindQueue(handle);
  if (q == nullptr || !cq->active) return;
  for (Event* e = cq->last; e != nullptr;) {
    Event* next = e->next;
    if (--e->count <= 0) q->Remove(e);
    e = next;
  }
  if (--q->numclients == 0 && q->shutdown) Release(q);
}

}  // namespace

extern "C" {

int pmdaEventNewActiveQueue(const char* name, size_t maxmemory, unsigned int nclients) {
  if (name == nullptr || maxmemory == 0) return -EINVAL;
  std::lock_guard<std::recursive_mutex> lock(mu);
  std::vector<Queue>& qs = Queues();
  for (const Queue& q : qs)
    if (q.inuse && q.name == name) return -EEXIST;
  size_t i = 0;
  while (i < qs.size() && qs[i].inuse) ++i;
  if (i == qs.size()) qs.emplace_back();
  Queue& q = qs[i];
  q = Queue{};
  q.name = name;
  q.maxmemory = maxmemory;
  q.numclients = nclients;
  q.eventarray = pmdaEventNewArray();
  q.inuse = true;
  return static_cast<int>(i);
}

int pmdaEventNewQueue(const char* name, size_t maxmemory) { return pmdaEventNewActiveQueue(name, maxmemory, 0); }

int pmdaEventQueueHandle(const char* name) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  std::vector<Queue>& qs = Queues();
  for (size_t i = 0; name != nullptr && i < qs.size(); ++i)
    if (qs[i].inuse && qs[i].name == name) return static_cast<int>(i);
  return -ESRCH;
}

int pmdaEventQueueCounter(int handle, pmAtomValue* atom) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  Queue* q = FindQueue(handle);
  if (q == nullptr) return -EINVAL;
  atom->ul = q->count;
  return PMDA_FETCH_STATIC;
}

int pmdaEventQueueClients(int handle, pmAtomValue* atom) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  Queue* q = FindQueue(handle);
  if (q == nullptr) return -EINVAL;
  atom->ul = q->numclients;
  return PMDA_FETCH_STATIC;
}

int pmdaEventQueueMemory(int handle, pmAtomValue* atom) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  Queue* q = FindQueue(handle);
  if (q == nullptr) return -EINVAL;
  atom->ull = q->qsize;
  return PMDA_FETCH_STATIC;
}

int pmdaEventQueueBytes(int handle, pmAtomValue* atom) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  Queue* q = FindQueue(handle);
  if (q == nullptr) return -EINVAL;
  atom->ull = q->bytes;
  return PMDA_FETCH_STATIC;
}

int pmdaEventQueueAppend(int handle, void* data, size_t bytes, struct timeval* tv) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  Queue* q = FindQueue(handle);
  if (q == nullptr) return -EINVAL;
  if (bytes > q->maxmemory) {
    pmNotifyErr(LOG_WARNING, "Event too large for queue %s (%ld > %ld)", q->name.c_str(), static_cast<long>(bytes),
                static_cast<long>(q->maxmemory));
  } else {
    MakeRoom(handle, q, bytes);
    if (q->numclients > 0) {
      auto* e = new Event;
      e->count = static_cast<int>(q->numclients);
      e->time = *tv;
      e->data.assign(static_cast<char*>(data), static_cast<char*>(data) + bytes);
      e->data.push_back('\0');
      q->Push(e);
    }
  }
  // the totals count every event, queued or not
  q->bytes += bytes;
  q->count++;
  return 0;
}

int pmdaEventQueueRecords(int handle, pmAtomValue* atom, int context, pmdaEventDecodeCallBack decode, void* data) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  ClientQueue* cq = FindClientQueue(context, handle, true);
  Queue* q = FindQueue(handle);
  if (q == nullptr || cq == nullptr || decode == nullptr) return -EINVAL;
  int sts = Fetch(q, cq, atom, decode, data);
  if (sts != 0) return sts;
  return atom->vbp == nullptr ? PMDA_FETCH_NOVALUES : PMDA_FETCH_STATIC;
}

int pmdaEventQueueShutdown(int handle) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  Queue* q = FindQueue(handle);
  if (q == nullptr) return -EINVAL;
  if (q->numclients > 0) {
    q->shutdown = true;  // released when its last client goes
  } else {
    Release(q);
  }
  return 0;
}

int pmdaEventNewClient(int context) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  std::vector<Client>& cs = Clients();
  for (size_t i = 0; i < cs.size(); ++i)
    if (cs[i].inuse && cs[i].context == context) return static_cast<int>(i);
  size_t i = 0;
  while (i < cs.size() && cs[i].inuse) ++i;
  if (i == cs.size()) cs.emplace_back();
  cs[i] = Client{context, true, {}};
  return static_cast<int>(i);
}

int pmdaEventEndClient(int context) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  Client* c = FindClient(context);
  if (c == nullptr) return 0;  // a context that never asked for events
  for (size_t i = 0; i < c->queues.size(); ++i) Forget(static_cast<int>(i), &c->queues[i]);
  *c = Client{};
  return 0;
}

int pmdaEventClients(pmAtomValue* atom) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  uint32_t n = 0;
  for (const Client& c : Clients()) n += c.inuse ? 1 : 0;
  atom->ul = n;
  return PMDA_FETCH_STATIC;
}

int pmdaEventSetFilter(int context, int handle, void* filter, pmdaEventApplyFilterCallBack apply,
                       pmdaEventReleaseFilterCallBack release) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  ClientQueue* cq = FindClientQueue(context, handle, true);
  if (cq == nullptr) return -EINVAL;
  if (cq->filter != nullptr && cq->release != nullptr) cq->release(cq->filter);
  cq->filter = filter;
  cq->apply = apply;
  cq->release = release;
  cq->access = true;
  return 0;
}

int pmdaEventSetAccess(int context, int handle, int allow) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  ClientQueue* cq = FindClientQueue(context, handle, true);
  if (cq == nullptr) return -EINVAL;
  cq->access = allow != 0;
  return 0;
}

// Copies up to msgsize - 1 bytes of an event into msg for a log line,
// white space as blanks and other unprintable bytes as dots.
char* __pmdaEventPrint(const char* buffer, int bufsize, char* msg, int msgsize) {
  if (msgsize < 4) return nullptr;
  const int n = msgsize < bufsize ? msgsize : bufsize;
  if (n <= 0) {
    msg[0] = '\0';
    return msg;
  }
  std::memcpy(msg, buffer, static_cast<size_t>(n));
  std::memset(msg + n, '.', static_cast<size_t>(msgsize - n));
  msg[n - 1] = '\0';
  for (int i = 0; i < n - 1; ++i) {
    const unsigned char ch = static_cast<unsigned char>(msg[i]);
    if (std::isspace(ch)) msg[i] = ' ';
    else if (!std::isprint(ch)) msg[i] = '.';
  }
  return msg;
}

}  // extern "C"
