// alarms.cc: libpcp's timed callbacks (__pmAFsetup, __pmAFregister,
// __pmAFunregister, __pmAFblock, __pmAFunblock, __pmAFisempty), which
// agents such as PCP's proc and nvidia use to refresh on their own.
//
// Events wait in one queue ordered by when they are due; the real-time
// interval timer (ITIMER_REAL) is set for the head, and SIGALRM's handler
// runs each event due within 10 ms, then sets the timer for the next one.
// A repeating event is rescheduled one interval on, skipping intervals it
// can no longer catch up with; a one-shot event (a zero interval) is
// dropped after it runs. Identifiers start at 0x8001. While the queue is
// changed outside the handler, SIGALRM is blocked; __pmAFblock holds it
// blocked until __pmAFunblock.
#include <sys/time.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>

#include "pcp_internal.h"

namespace {

struct Event {
  Event* next;
  int id;
  timeval when;
  timeval delta;
  void* data;
  void (*func)(int, void*);
};

constexpr long kMinimumMicros = 100;  // the shortest interval the timer is set for
constexpr long kTickMicros = 10000;   // events due this soon run now

Event* queue = nullptr;
Event* retired = nullptr;  // one-shot events run by the handler, freed later
int last_id = 0x8000;
volatile sig_atomic_t blocked = 0;
bool handler_set = false;

timeval Now() {
  timeval t;
  gettimeofday(&t, nullptr);
  return t;
}

long long Micros(const timeval& t) { return static_cast<long long>(t.tv_sec) * 1000000 + t.tv_usec; }

timeval FromMicros(long long us) {
  timeval t;
  t.tv_sec = static_cast<time_t>(us / 1000000);
  t.tv_usec = static_cast<suseconds_t>(us % 1000000);
  return t;
}

void Hold() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGALRM);
  sigprocmask(SIG_BLOCK, &s, nullptr);
}

void Release() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGALRM);
  sigprocmask(SIG_UNBLOCK, &s, nullptr);
}

void Enqueue(Event* e) {
  Event** at = &queue;
  while (*at != nullptr && Micros(e->when) >= Micros((*at)->when)) at = &(*at)->next;
  e->next = *at;
  *at = e;
}

// Sets the timer for the head of the queue (or leaves it, when empty).
void ArmForHead() {
  if (queue == nullptr) return;
  long long wait = Micros(queue->when) - Micros(Now());
  if (wait < kMinimumMicros) wait = kMinimumMicros;
  itimerval t{};
  t.it_value = FromMicros(wait);
  setitimer(ITIMER_REAL, &t, nullptr);
}

// The next due time of a repeating event after it ran: one interval on,
// and on past any interval already wholly behind `now`.
void Reschedule(Event* e, long long now) {
  long long when = Micros(e->when);
  const long long delta = Micros(e->delta);
  do {
    when += delta;
  } while (when + delta < now);
  e->when = FromMicros(when);
}

void OnAlarm(int) {
  if (!blocked) Hold();
  while (queue != nullptr && Micros(queue->when) - Micros(Now()) <= kTickMicros) {
    Event* e = queue;
    queue = e->next;
    e->func(e->id, e->data);
    if (Micros(e->delta) == 0) {
      e->next = retired;
      retired = e;
    } else {
      Reschedule(e, Micros(Now()));
      Enqueue(e);
    }
  }
  ArmForHead();
  if (!blocked) Release();
}

void SetHandler() {
  struct sigaction sa {};
  sa.sa_handler = OnAlarm;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGALRM, &sa, nullptr);
  handler_set = true;
}

// Frees the one-shot events the handler has run (SIGALRM held).
void FreeRetired() {
  while (retired != nullptr) {
    Event* e = retired;
    retired = e->next;
    std::free(e);
  }
}

}  // namespace

extern "C" {

// An event first due `start` from now (null: now), then every `delta` (a
// zero delta: once). Returns its identifier, or -errno.
int __pmAFsetup(const struct timeval* start, const struct timeval* delta, void* data, void (*func)(int, void*)) {
  if (!blocked) Hold();
  if (!handler_set) SetHandler();
  FreeRetired();
  auto* e = static_cast<Event*>(std::malloc(sizeof(Event)));
  if (e == nullptr) {
    if (!blocked) Release();
    return -ENOMEM;
  }
  e->id = ++last_id;
  e->data = data;
  e->delta = *delta;
  e->func = func;
  e->when = FromMicros(Micros(Now()) + (start != nullptr ? Micros(*start) : 0));
  Enqueue(e);
  if (queue == e) ArmForHead();
  const int id = e->id;
  if (!blocked) Release();
  return id;
}

int __pmAFregister(const struct timeval* delta, void* data, void (*func)(int, void*)) {
  return __pmAFsetup(delta, delta, data, func);
}

// 0, or -1 when no event has that identifier.
int __pmAFunregister(int id) {
  if (!blocked) Hold();
  FreeRetired();
  Event** at = &queue;
  while (*at != nullptr && (*at)->id != id) at = &(*at)->next;
  if (*at == nullptr) {
    if (!blocked) Release();
    return -1;
  }
  Event* e = *at;
  const bool was_head = at == &queue;
  *at = e->next;
  std::free(e);
  if (was_head) ArmForHead();
  if (!blocked) Release();
  return 0;
}

void __pmAFblock(void) {
  blocked = 1;
  Hold();
}

void __pmAFunblock(void) {
  blocked = 0;
  if (!handler_set) SetHandler();
  Release();
}

int __pmAFisempty(void) { return queue == nullptr; }

}  // extern "C"
