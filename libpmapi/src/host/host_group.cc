// Many hosts fetched at once; see pmapi/host_group.h.
//
// The calling thread owns the members' connections and runs the rounds:
// it sends every request, then waits on all the sockets with one epoll
// set. Connecting is left to a TimedPool: a job connects one host, resolves
// its metrics (AgentSetCache) and hands the connection over through the
// arrivals list, which the next round takes in. A job that fails posts
// itself again after the host's back-off.
#include "pmapi/host_group.h"

#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <utility>

#include "absl/time/clock.h"
#include "agent_set_cache.h"
#include "config_lookup.h"
#include "host_protocol.h"
#include "host_spec.h"
#include "pmapi/errors.h"
#include "pmapi/profile.h"
#include "reconnect_backoff.h"
#include "socket_wait.h"
#include "timed_pool.h"

namespace pmapi {
namespace {

struct Member {
  std::string spec;
  // Loop thread only: the connection and its metrics, while connected.
  std::unique_ptr<HostProtocol> proto;
  std::shared_ptr<const MetricTable> table;
  absl::Status last_error;
  bool ever_connected = false;
  // In a round: the reply is awaited.
  bool waiting = false;
  int state_change = 0;
  Result result;
  // Connecting jobs only (one at a time per member).
  ReconnectBackoff backoff = ReconnectBackoff::FromEnvironment();
};

// What a connecting job hands to the loop thread.
struct Arrival {
  size_t host;
  absl::Status status;
  std::unique_ptr<HostProtocol> proto;
  std::shared_ptr<const MetricTable> table;
};

// pmcd's state-change bits for an agent added (PMCD_ADD_AGENT) or
// dropped (PMCD_DROP_AGENT).
constexpr int kAgentSetChanges = 1 << 0 | 1 << 2;

// Milliseconds for epoll_wait until `deadline`, rounded up.
int WaitMillis(int64_t deadline) {
  const int64_t left = deadline - MonotonicNanos();
  if (left <= 0) return 0;
  return static_cast<int>(std::min<int64_t>((left + 999999) / 1000000, 1 << 30));
}

}  // namespace

struct HostGroup::State {
  State(std::vector<std::string> hosts, std::vector<std::string> names, ConnectOptions options,
        absl::Duration deadline, int threads)
      : metrics(names),
        connect(std::move(options)),
        deadline(deadline),
        cache(std::move(names)),
        members(hosts.size()),
        tried(hosts.size(), false),
        pool(std::min<int>(threads, static_cast<int>(hosts.size()))) {
    for (size_t i = 0; i < hosts.size(); ++i) members[i].spec = std::move(hosts[i]);
  }
  ~State() {
    if (epfd >= 0) close(epfd);
  }

  void Attempt(size_t i);
  void Arrive(Arrival a);
  void WaitAllTried();
  void TakeArrivals();
  void Adopt(Arrival& a);
  void Lose(size_t i, absl::Status why);
  void Start(size_t i);
  void Answer(size_t i, const absl::Status& status,
              absl::FunctionRef<void(const HostAnswer&)> each);
  void Continue(size_t i, absl::FunctionRef<void(const HostAnswer&)> each);

  const std::vector<std::string> metrics;
  const ConnectOptions connect;
  const absl::Duration deadline;
  AgentSetCache cache;
  // pmcd needs a profile before its first fetch: every instance.
  const Profile all_instances;
  std::vector<Member> members;
  HostGroupStats stats;
  int epfd = -1;
  size_t waiting = 0;

  std::mutex mu;
  std::condition_variable arrived;
  std::vector<Arrival> arrivals;
  std::vector<bool> tried;
  size_t tried_count = 0;
  // Last: destroyed first, so no job outlives what it uses.
  TimedPool pool;
};

void HostGroup::State::Attempt(size_t i) {
  Member& m = members[i];
  Arrival a{i, absl::OkStatus(), nullptr, nullptr};
  absl::StatusOr<std::unique_ptr<HostProtocol>> p = HostProtocol::Connect(m.spec, connect);
  if (p.ok()) {
    absl::StatusOr<std::shared_ptr<const MetricTable>> t = cache.Resolve(**p);
    if (t.ok()) {
      a.proto = std::move(*p);
      a.table = std::move(*t);
    } else {
      a.status = t.status();
    }
  } else {
    a.status = p.status();
  }
  if (a.status.ok()) {
    m.backoff.Succeeded();
  } else {
    m.backoff.Failed(absl::Now());
    pool.Post(m.backoff.retry_at(), [this, i] { Attempt(i); });
  }
  Arrive(std::move(a));
}

void HostGroup::State::Arrive(Arrival a) {
  std::lock_guard<std::mutex> lock(mu);
  if (!tried[a.host]) {
    tried[a.host] = true;
    ++tried_count;
  }
  arrivals.push_back(std::move(a));
  arrived.notify_all();
}

void HostGroup::State::WaitAllTried() {
  std::unique_lock<std::mutex> lock(mu);
  arrived.wait(lock, [this] { return tried_count == members.size(); });
}

void HostGroup::State::TakeArrivals() {
  std::vector<Arrival> in;
  {
    std::lock_guard<std::mutex> lock(mu);
    in.swap(arrivals);
  }
  for (Arrival& a : in) {
    if (a.status.ok()) {
      Adopt(a);
    } else {
      members[a.host].last_error = a.status;
      ++stats.failed_attempts;
    }
  }
}

void HostGroup::State::Adopt(Arrival& a) {
  Member& m = members[a.host];
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = a.host;
  if (epoll_ctl(epfd, EPOLL_CTL_ADD, a.proto->fd(), &ev) != 0) {
    Lose(a.host, PcpError(-errno));
    return;
  }
  m.proto = std::move(a.proto);
  m.table = std::move(a.table);
  m.last_error = absl::OkStatus();
  ++stats.connects;
  if (m.ever_connected) ++stats.reconnects;
  m.ever_connected = true;
}

void HostGroup::State::Lose(size_t i, absl::Status why) {
  Member& m = members[i];
  if (m.proto != nullptr) {
    if (m.proto->fd() >= 0) epoll_ctl(epfd, EPOLL_CTL_DEL, m.proto->fd(), nullptr);
    m.proto.reset();
    ++stats.connections_lost;
  }
  m.table.reset();
  m.last_error = std::move(why);
  pool.Post(absl::Now(), [this, i] { Attempt(i); });
}

void HostGroup::State::Answer(size_t i, const absl::Status& status,
                              absl::FunctionRef<void(const HostAnswer&)> each) {
  Member& m = members[i];
  HostAnswer a;
  a.host = i;
  a.status = status;
  if (status.ok()) {
    a.result = &m.result;
    a.ids = m.table->ids;
    a.descs = m.table->descs;
    a.state_change = m.state_change;
    ++stats.answers_ok;
  } else {
    ++stats.answers_failed;
  }
  each(a);
}

void HostGroup::State::Start(size_t i) {
  Member& m = members[i];
  m.state_change = 0;
  absl::Status s = m.proto->StartFetch(m.table->ids, &all_instances);
  if (!s.ok()) {
    Lose(i, s);
    return;
  }
  m.waiting = true;
  ++waiting;
}

void HostGroup::State::Continue(size_t i, absl::FunctionRef<void(const HostAnswer&)> each) {
  Member& m = members[i];
  if (!m.waiting) {
    // Bytes, or the end of the stream, when nothing was asked: the
    // stream is out of step or closed.
    if (m.proto != nullptr) Lose(i, PcpError(kErrIpc));
    return;
  }
  absl::StatusOr<bool> done = m.proto->ContinueFetch(m.table->ids.size(), &m.result,
                                                     &m.state_change);
  if (done.ok() && !*done) return;
  m.waiting = false;
  --waiting;
  if (!done.ok() && m.proto->broken()) Lose(i, done.status());
  Answer(i, done.ok() ? absl::OkStatus() : done.status(), each);
  // An agent added or dropped changes the host's agent set: it is
  // connected again, and its metrics resolved for the agents it now runs.
  if (done.ok() && (m.state_change & kAgentSetChanges) != 0) Lose(i, absl::OkStatus());
}

HostGroup::HostGroup(std::unique_ptr<State> state) : state_(std::move(state)) {}
HostGroup::~HostGroup() = default;

absl::StatusOr<std::unique_ptr<HostGroup>> HostGroup::Open(std::vector<std::string> hosts,
                                                           std::vector<std::string> metrics,
                                                           const HostGroupOptions& options) {
  if (hosts.empty() || metrics.empty()) return PcpError(kErrToosmall);
  // Before the connecting threads start: they read the environment.
  LoadConfig();
  ConnectOptions connect = ConnectOptions::FromEnvironment();
  const absl::Duration deadline = options.deadline.value_or(connect.request_timeout);
  if (deadline <= absl::ZeroDuration()) return PcpError(-EINVAL);
  const int epfd = epoll_create1(EPOLL_CLOEXEC);
  if (epfd < 0) return PcpError(-errno);
  const size_t n = hosts.size();
  auto state = std::make_unique<State>(std::move(hosts), std::move(metrics), std::move(connect), deadline,
                                       options.connect_threads);
  state->epfd = epfd;
  for (size_t i = 0; i < n; ++i) {
    state->pool.Post(absl::InfinitePast(), [s = state.get(), i] { s->Attempt(i); });
  }
  if (options.wait_for_connections) state->WaitAllTried();
  state->TakeArrivals();
  return std::unique_ptr<HostGroup>(new HostGroup(std::move(state)));
}

size_t HostGroup::size() const { return state_->members.size(); }
const std::string& HostGroup::host(size_t i) const { return state_->members[i].spec; }
const std::vector<std::string>& HostGroup::metrics() const { return state_->metrics; }
bool HostGroup::connected(size_t i) const { return state_->members[i].proto != nullptr; }
absl::Status HostGroup::last_error(size_t i) const { return state_->members[i].last_error; }

HostGroupStats HostGroup::stats() const {
  HostGroupStats s = state_->stats;
  s.lookups = state_->cache.lookups();
  return s;
}

void HostGroup::Fetch(absl::FunctionRef<void(const HostAnswer&)> each) {
  State& s = *state_;
  s.TakeArrivals();
  ++s.stats.rounds;
  const int64_t deadline = DeadlineAfter(s.deadline);
  s.waiting = 0;
  for (size_t i = 0; i < s.members.size(); ++i) {
    if (s.members[i].proto != nullptr) s.Start(i);
    if (!s.members[i].waiting) s.Answer(i, PcpError(kErrIpc), each);
  }
  std::vector<epoll_event> events(std::min<size_t>(s.members.size(), 256));
  while (s.waiting > 0) {
    const int n = epoll_wait(s.epfd, events.data(), static_cast<int>(events.size()),
                             WaitMillis(deadline));
    if (n < 0 && errno != EINTR) break;
    for (int k = 0; k < n; ++k) s.Continue(static_cast<size_t>(events[k].data.u64), each);
    if (s.waiting > 0 && MonotonicNanos() >= deadline) break;
  }
  // Those that missed the deadline (or an epoll failure) lose their
  // connection: a late reply would be taken for the next round's.
  for (size_t i = 0; i < s.members.size() && s.waiting > 0; ++i) {
    Member& m = s.members[i];
    if (!m.waiting) continue;
    m.waiting = false;
    --s.waiting;
    ++s.stats.timeouts;
    s.Lose(i, PcpError(kErrTimeout));
    s.Answer(i, PcpError(kErrTimeout), each);
  }
}

}  // namespace pmapi
