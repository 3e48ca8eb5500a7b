// relay: a stand-in for a network between one client and many pmcds on
// this machine. It listens on local TCP ports and forwards each accepted
// connection to a target, delivering every chunk it reads D milliseconds
// later, in order, in both directions; half-closes are forwarded after the
// same delay and so are resets.
//
//   relay [--delay-ms D] [--record DIR] LISTEN_PORT:TARGET_HOST:TARGET_PORT ...
//   relay [--delay-ms D] [--record DIR] --from-base LBASE --to-base TBASE
//         --count N [--host H]
//
// The second form maps 127.0.0.1:LBASE+i to H:TBASE+i for i in 0..N-1 (H
// defaults to localhost); both forms may be combined. D defaults to 1 and
// may be 0 or fractional. With --record, the bytes each target sends to its
// client are also written to DIR/conn-NNNN.bin, NNNN counting accepted
// connections from 0. Prints "relay: ready" on stdout once every port
// listens; exits cleanly on SIGTERM or SIGINT. One thread, one epoll set;
// reading from a side stops while more than a few MB wait to be delivered
// from it. Built with
//   c++ -std=c++20 -O2 -Wall -Wextra -Werror bench/many_hosts/relay.cc -o relay
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

constexpr size_t kReadSize = 64 * 1024;
constexpr size_t kHighWater = 4 * 1024 * 1024;
constexpr size_t kLowWater = 1024 * 1024;
constexpr uint64_t kListenerTag = uint64_t{1} << 63;
constexpr uint64_t kTimerTag = kListenerTag | 1;
constexpr uint64_t kSignalTag = kListenerTag | 2;
constexpr int kClient = 0;
constexpr int kTarget = 1;

struct Mapping {
  int listen_port = 0;
  std::string host;
  std::string port;
  std::vector<sockaddr_storage> addrs;
  std::vector<socklen_t> lens;
};

struct Options {
  int64_t delay_ns = 1000000;
  std::string record_dir;
  std::vector<Mapping> mappings;
};

enum class Mark { kData, kEof, kReset };

struct Chunk {
  int64_t due_ns;
  Mark mark;
  std::vector<char> bytes;
};

// One direction of a connection: bytes read from side `from`, waiting to
// be written to the other side.
struct Direction {
  std::deque<Chunk> queue;
  size_t offset = 0;  // into the front chunk, already written
  size_t queued = 0;  // bytes in the queue not yet written
  bool reading = true;
  bool paused = false;
  bool blocked = false;
  bool done = false;
};

struct Conn {
  uint64_t id = 0;
  const Mapping* mapping = nullptr;
  size_t addr_index = 0;
  int fd[2] = {-1, -1};
  uint32_t interest[2] = {0, 0};
  bool connecting = true;
  Direction dir[2];  // dir[s] carries what side s sends
  int record_fd = -1;
};

struct Timer {
  int64_t due_ns;
  uint64_t conn;
  int from;
};

uint64_t ListenerTag(size_t index) { return kListenerTag | index << 2 | 3; }

int64_t NowNs() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return int64_t{t.tv_sec} * 1000000000 + t.tv_nsec;
}

[[noreturn]] void Die(const std::string& what) {
  fprintf(stderr, "relay: %s\n", what.c_str());
  exit(1);
}

void Usage() {
  Die("usage: relay [--delay-ms D] [--record DIR] [LPORT:HOST:TPORT ...] "
      "[--from-base LBASE --to-base TBASE --count N [--host H]]");
}

int ParsePort(const std::string& s) {
  char* end = nullptr;
  long v = strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || v < 1 || v > 65535) Die("bad port '" + s + "'");
  return static_cast<int>(v);
}

int ParseCount(const std::string& s) {
  char* end = nullptr;
  long v = strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || v < 0 || v > 65535) Die("bad count '" + s + "'");
  return static_cast<int>(v);
}

int64_t ParseDelay(const std::string& s) {
  char* end = nullptr;
  double v = strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !(v >= 0) || v > 3600000) Die("bad delay '" + s + "'");
  return static_cast<int64_t>(v * 1e6);
}

// "LPORT:HOST:TPORT"; HOST may hold colons (an IPv6 address).
Mapping ParseMapping(const std::string& s) {
  size_t first = s.find(':');
  size_t last = s.rfind(':');
  if (first == std::string::npos || first == last) Die("bad mapping '" + s + "'");
  Mapping m;
  m.listen_port = ParsePort(s.substr(0, first));
  m.host = s.substr(first + 1, last - first - 1);
  m.port = std::to_string(ParsePort(s.substr(last + 1)));
  if (m.host.size() > 2 && m.host.front() == '[' && m.host.back() == ']') {
    m.host = m.host.substr(1, m.host.size() - 2);
  }
  return m;
}

struct Range {
  int from_base = 0;
  int to_base = 0;
  int count = -1;
  std::string host = "localhost";
};

void AddRange(const Range& r, Options* o) {
  if (r.count < 0) return;
  if (r.from_base == 0 || r.to_base == 0) Die("--count needs --from-base and --to-base");
  for (int i = 0; i < r.count; ++i) {
    Mapping m;
    m.listen_port = ParsePort(std::to_string(r.from_base + i));
    m.host = r.host;
    m.port = std::to_string(ParsePort(std::to_string(r.to_base + i)));
    o->mappings.push_back(m);
  }
}

Options ParseArgs(int argc, char** argv) {
  Options o;
  Range r;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool has_value = i + 1 < argc;
    if (a.rfind("--", 0) == 0 && !has_value) Usage();
    if (a == "--delay-ms") {
      o.delay_ns = ParseDelay(argv[++i]);
    } else if (a == "--record") {
      o.record_dir = argv[++i];
    } else if (a == "--from-base") {
      r.from_base = ParsePort(argv[++i]);
    } else if (a == "--to-base") {
      r.to_base = ParsePort(argv[++i]);
    } else if (a == "--count") {
      r.count = ParseCount(argv[++i]);
    } else if (a == "--host") {
      r.host = argv[++i];
    } else if (a.rfind("-", 0) == 0) {
      Usage();
    } else {
      o.mappings.push_back(ParseMapping(a));
    }
  }
  AddRange(r, &o);
  if (o.mappings.empty()) Usage();
  return o;
}

void Resolve(Mapping* m) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* list = nullptr;
  int rc = getaddrinfo(m->host.c_str(), m->port.c_str(), &hints, &list);
  if (rc != 0) Die("cannot resolve " + m->host + ": " + gai_strerror(rc));
  for (addrinfo* a = list; a != nullptr; a = a->ai_next) {
    sockaddr_storage ss{};
    memcpy(&ss, a->ai_addr, a->ai_addrlen);
    m->addrs.push_back(ss);
    m->lens.push_back(a->ai_addrlen);
  }
  freeaddrinfo(list);
}

void SetNoDelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// Closes fd so that its peer sees a reset rather than an orderly close.
void CloseWithReset(int fd) {
  linger l{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  close(fd);
}

void RaiseFileLimit() {
  rlimit r;
  if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_NOFILE, &r);
  }
}

class Relay {
 public:
  explicit Relay(Options o) : options_(std::move(o)) {}
  void Setup();
  int Run();

 private:
  void Listen(size_t index);
  void Watch(int fd, uint64_t tag);
  void OnEvent(uint64_t tag, uint32_t events);
  void Accept(size_t index);
  void PauseListener(size_t index);
  void ResumeListeners();
  void StartConn(int client, const Mapping* m);
  bool Connect(Conn* c);
  void OnConnected(Conn* c);
  void OnConnEvent(Conn* c, int side, uint32_t events);
  void Read(Conn* c, int side);
  void Record(Conn* c, const char* bytes, size_t n);
  void Queue(Conn* c, int from, Mark mark, std::vector<char> bytes);
  void Flush(Conn* c, int from);
  bool WriteFront(Conn* c, int from);
  void PeerReset(Conn* c, int side);
  void UpdateInterest(Conn* c, int side);
  void MaybeFinish(Conn* c);
  void Remove(Conn* c);
  void OnTimer();
  void ArmTimer();
  void Shutdown();

  Options options_;
  int epoll_ = -1;
  int timer_fd_ = -1;
  int signal_fd_ = -1;
  std::vector<int> listeners_;
  std::unordered_map<uint64_t, std::unique_ptr<Conn>> conns_;
  std::deque<Timer> timers_;
  std::vector<char> buffer_ = std::vector<char>(kReadSize);
  std::vector<size_t> full_listeners_;
  int64_t armed_ns_ = -1;
  uint64_t next_id_ = 1;
  unsigned accepted_ = 0;
  bool stopping_ = false;
};

void Relay::Setup() {
  RaiseFileLimit();
  signal(SIGPIPE, SIG_IGN);
  epoll_ = epoll_create1(EPOLL_CLOEXEC);
  timer_fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (epoll_ < 0 || timer_fd_ < 0) Die(std::string("epoll/timerfd: ") + strerror(errno));
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  sigprocmask(SIG_BLOCK, &mask, nullptr);
  signal_fd_ = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
  if (signal_fd_ < 0) Die(std::string("signalfd: ") + strerror(errno));
  Watch(timer_fd_, kTimerTag);
  Watch(signal_fd_, kSignalTag);
  for (size_t i = 0; i < options_.mappings.size(); ++i) {
    Resolve(&options_.mappings[i]);
    Listen(i);
  }
}

void Relay::Watch(int fd, uint64_t tag) {
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = tag;
  if (epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &ev) != 0) {
    Die(std::string("epoll_ctl: ") + strerror(errno));
  }
}

void Relay::Listen(size_t index) {
  int port = options_.mappings[index].listen_port;
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) Die(std::string("socket: ") + strerror(errno));
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd, SOMAXCONN) != 0) {
    Die("cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + strerror(errno));
  }
  listeners_.push_back(fd);
  Watch(fd, ListenerTag(index));
}

int Relay::Run() {
  printf("relay: ready\n");
  fflush(stdout);
  std::vector<epoll_event> events(256);
  while (!stopping_) {
    int n = epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), -1);
    if (n < 0 && errno != EINTR) Die(std::string("epoll_wait: ") + strerror(errno));
    for (int i = 0; i < n; ++i) OnEvent(events[i].data.u64, events[i].events);
  }
  Shutdown();
  return 0;
}

void Relay::OnEvent(uint64_t tag, uint32_t events) {
  if (tag == kTimerTag) {
    OnTimer();
  } else if (tag == kSignalTag) {
    stopping_ = true;
  } else if (tag & kListenerTag) {
    Accept(static_cast<size_t>((tag & ~kListenerTag) >> 2));
  } else {
    auto it = conns_.find(tag >> 1);
    if (it != conns_.end()) OnConnEvent(it->second.get(), static_cast<int>(tag & 1), events);
  }
}

void Relay::Accept(size_t index) {
  for (;;) {
    int fd = accept4(listeners_[index], nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE) PauseListener(index);
      return;
    }
    StartConn(fd, &options_.mappings[index]);
  }
}

// Out of descriptors: the listener is left out of the epoll set until a
// connection closes, so that its pending connection does not wake the loop
// again and again.
void Relay::PauseListener(size_t index) {
  fprintf(stderr, "relay: accept: %s\n", strerror(errno));
  epoll_ctl(epoll_, EPOLL_CTL_DEL, listeners_[index], nullptr);
  full_listeners_.push_back(index);
}

void Relay::ResumeListeners() {
  for (size_t index : full_listeners_) Watch(listeners_[index], ListenerTag(index));
  full_listeners_.clear();
}

void Relay::StartConn(int client, const Mapping* m) {
  auto c = std::make_unique<Conn>();
  c->id = next_id_++;
  c->mapping = m;
  c->fd[kClient] = client;
  SetNoDelay(client);
  if (!options_.record_dir.empty()) {
    char name[32];
    snprintf(name, sizeof name, "/conn-%04u.bin", accepted_);
    std::string path = options_.record_dir + name;
    c->record_fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (c->record_fd < 0) fprintf(stderr, "relay: %s: %s\n", path.c_str(), strerror(errno));
  }
  ++accepted_;
  Conn* p = c.get();
  conns_[c->id] = std::move(c);
  if (!Connect(p)) {
    CloseWithReset(p->fd[kClient]);
    p->fd[kClient] = -1;
    Remove(p);
    return;
  }
  UpdateInterest(p, kClient);
}

// Starts connecting to the next of the target's addresses; false when
// none is left.
bool Relay::Connect(Conn* c) {
  const Mapping* m = c->mapping;
  while (c->addr_index < m->addrs.size()) {
    size_t i = c->addr_index++;
    const sockaddr* sa = reinterpret_cast<const sockaddr*>(&m->addrs[i]);
    int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) continue;
    SetNoDelay(fd);
    if (connect(fd, sa, m->lens[i]) == 0 || errno == EINPROGRESS) {
      c->fd[kTarget] = fd;
      c->connecting = true;
      UpdateInterest(c, kTarget);
      return true;
    }
    close(fd);
  }
  return false;
}

// The target's socket reported an event while connecting: it connected,
// or it failed and the next address is tried. (An event left over from an
// address already given up finds the new socket still connecting.)
void Relay::OnConnected(Conn* c) {
  int err = 0;
  socklen_t len = sizeof err;
  getsockopt(c->fd[kTarget], SOL_SOCKET, SO_ERROR, &err, &len);
  sockaddr_storage peer;
  socklen_t peer_len = sizeof peer;
  bool connected = getpeername(c->fd[kTarget], reinterpret_cast<sockaddr*>(&peer), &peer_len) == 0;
  if (err == 0 && !connected) return;
  if (err != 0) {
    epoll_ctl(epoll_, EPOLL_CTL_DEL, c->fd[kTarget], nullptr);
    close(c->fd[kTarget]);
    c->fd[kTarget] = -1;
    c->interest[kTarget] = 0;
    if (!Connect(c)) {
      CloseWithReset(c->fd[kClient]);
      c->fd[kClient] = -1;
      Remove(c);
    }
    return;
  }
  c->connecting = false;
  UpdateInterest(c, kTarget);
  Flush(c, kClient);
}

void Relay::OnConnEvent(Conn* c, int side, uint32_t events) {
  uint64_t id = c->id;
  if (side == kTarget && c->connecting) {
    OnConnected(c);
    return;
  }
  Direction& in = c->dir[side];
  if ((events & (EPOLLIN | EPOLLHUP | EPOLLERR)) && in.reading && !in.paused) Read(c, side);
  if (conns_.count(id) == 0 || c->fd[side] < 0) return;
  Direction& out = c->dir[1 - side];
  if ((events & (EPOLLOUT | EPOLLHUP | EPOLLERR)) && out.blocked) {
    out.blocked = false;
    Flush(c, 1 - side);
  }
}

void Relay::Read(Conn* c, int side) {
  ssize_t n = read(c->fd[side], buffer_.data(), buffer_.size());
  if (n > 0) {
    std::vector<char> bytes(buffer_.begin(), buffer_.begin() + n);
    if (side == kTarget) Record(c, bytes.data(), bytes.size());
    Queue(c, side, Mark::kData, std::move(bytes));
  } else if (n == 0) {
    c->dir[side].reading = false;
    UpdateInterest(c, side);
    Queue(c, side, Mark::kEof, {});
  } else if (errno != EAGAIN && errno != EINTR) {
    PeerReset(c, side);
  }
}

void Relay::Record(Conn* c, const char* bytes, size_t n) {
  while (c->record_fd >= 0 && n > 0) {
    ssize_t w = write(c->record_fd, bytes, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      fprintf(stderr, "relay: recording: %s\n", strerror(errno));
      close(c->record_fd);
      c->record_fd = -1;
      return;
    }
    bytes += w;
    n -= static_cast<size_t>(w);
  }
}

void Relay::Queue(Conn* c, int from, Mark mark, std::vector<char> bytes) {
  Direction& d = c->dir[from];
  int64_t due = NowNs() + options_.delay_ns;
  d.queued += bytes.size();
  d.queue.push_back(Chunk{due, mark, std::move(bytes)});
  if (d.queued > kHighWater && !d.paused) {
    d.paused = true;
    UpdateInterest(c, from);
  }
  if (options_.delay_ns == 0) {
    Flush(c, from);
    return;
  }
  timers_.push_back(Timer{due, c->id, from});
  ArmTimer();
}

// Writes what is due of direction `from` to the other side, until the
// queue holds nothing due or the other side takes no more.
void Relay::Flush(Conn* c, int from) {
  Direction& d = c->dir[from];
  int to = 1 - from;
  if (c->fd[to] < 0 || (to == kTarget && c->connecting) || d.blocked) return;
  int64_t now = NowNs();
  while (!d.queue.empty() && d.queue.front().due_ns <= now) {
    if (!WriteFront(c, from)) return;
  }
  if (d.paused && d.queued < kLowWater && d.reading) {
    d.paused = false;
    UpdateInterest(c, from);
  }
  MaybeFinish(c);
}

// Delivers the front chunk of direction `from`; false if it could not be
// delivered whole now, or the connection went away.
bool Relay::WriteFront(Conn* c, int from) {
  Direction& d = c->dir[from];
  int to = 1 - from;
  Chunk& ch = d.queue.front();
  if (ch.mark == Mark::kReset) {
    CloseWithReset(c->fd[to]);
    c->fd[to] = -1;
    Remove(c);
    return false;
  }
  if (ch.mark == Mark::kEof) {
    shutdown(c->fd[to], SHUT_WR);
    d.done = true;
    d.queue.pop_front();
    return true;
  }
  ssize_t n = write(c->fd[to], ch.bytes.data() + d.offset, ch.bytes.size() - d.offset);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
    d.blocked = true;
    UpdateInterest(c, to);
    return false;
  }
  if (n < 0) {
    PeerReset(c, to);
    return false;
  }
  d.offset += static_cast<size_t>(n);
  d.queued -= static_cast<size_t>(n);
  if (d.offset < ch.bytes.size()) return true;
  d.offset = 0;
  d.queue.pop_front();
  return true;
}

// Side `side` was reset: it is closed at once, what was bound for it is
// dropped, and the reset reaches the other side after what it sent before.
void Relay::PeerReset(Conn* c, int side) {
  epoll_ctl(epoll_, EPOLL_CTL_DEL, c->fd[side], nullptr);
  close(c->fd[side]);
  c->fd[side] = -1;
  c->interest[side] = 0;
  Direction& to_side = c->dir[1 - side];
  to_side.queue.clear();
  to_side.queued = 0;
  to_side.done = true;
  to_side.reading = false;
  to_side.blocked = false;
  UpdateInterest(c, 1 - side);
  Direction& from_side = c->dir[side];
  from_side.reading = false;
  Queue(c, side, Mark::kReset, {});
}

// The events wanted on side `side`: readable while its direction reads,
// writable while the direction into it waits for room (or to connect). A
// socket with nothing wanted leaves the epoll set.
void Relay::UpdateInterest(Conn* c, int side) {
  int fd = c->fd[side];
  if (fd < 0) return;
  const Direction& in = c->dir[side];
  const Direction& out = c->dir[1 - side];
  uint32_t want = 0;
  if (in.reading && !in.paused) want |= EPOLLIN;
  if (out.blocked || (side == kTarget && c->connecting)) want |= EPOLLOUT;
  uint32_t had = c->interest[side];
  if (want == had) return;
  epoll_event ev{};
  ev.events = want;
  ev.data.u64 = c->id << 1 | static_cast<uint64_t>(side);
  int op = had == 0 ? EPOLL_CTL_ADD : want == 0 ? EPOLL_CTL_DEL : EPOLL_CTL_MOD;
  epoll_ctl(epoll_, op, fd, &ev);
  c->interest[side] = want;
}

// Both ends have closed their sending side and both closes were delivered.
void Relay::MaybeFinish(Conn* c) {
  if (c->dir[0].done && c->dir[1].done && c->dir[0].queue.empty() && c->dir[1].queue.empty()) {
    Remove(c);
  }
}

void Relay::Remove(Conn* c) {
  for (int s = 0; s < 2; ++s) {
    if (c->fd[s] >= 0) close(c->fd[s]);
  }
  if (c->record_fd >= 0) close(c->record_fd);
  conns_.erase(c->id);
  ResumeListeners();
}

void Relay::OnTimer() {
  uint64_t expirations;
  while (read(timer_fd_, &expirations, sizeof expirations) > 0) {
  }
  armed_ns_ = -1;
  int64_t now = NowNs();
  while (!timers_.empty() && timers_.front().due_ns <= now) {
    Timer t = timers_.front();
    timers_.pop_front();
    auto it = conns_.find(t.conn);
    if (it != conns_.end()) Flush(it->second.get(), t.from);
  }
  ArmTimer();
}

// Timers are due in the order they were queued (the delay is the same for
// all), so the front one is the next.
void Relay::ArmTimer() {
  if (timers_.empty() || timers_.front().due_ns == armed_ns_) return;
  int64_t due = timers_.front().due_ns;
  itimerspec its{};
  its.it_value.tv_sec = due / 1000000000;
  its.it_value.tv_nsec = due % 1000000000;
  timerfd_settime(timer_fd_, TFD_TIMER_ABSTIME, &its, nullptr);
  armed_ns_ = due;
}

void Relay::Shutdown() {
  while (!conns_.empty()) Remove(conns_.begin()->second.get());
  for (int fd : listeners_) close(fd);
  close(timer_fd_);
  close(signal_fd_);
  close(epoll_);
}

}  // namespace

int main(int argc, char** argv) {
  Relay relay(ParseArgs(argc, argv));
  relay.Setup();
  return relay.Run();
}
