/* The floor of a fetch over pmcd's unix socket: no library at all, one
 * send() of a prebuilt FETCH PDU, then poll() and recv() until the whole
 * RESULT is in: the least a client can do per fetch. It shows how much of a
 * client's CPU per fetch is the kernel's (socket calls, waking pmcd,
 * sleeping until the reply) rather than the library's. (Without the poll(),
 * a recv() asleep on the socket is woken once more when pmcd takes the
 * request off it, and sleeps twice per fetch.)
 *
 *   raw SOCKET PMID N      PMID as domain.cluster.item, e.g. 29.0.10
 *
 * Protocol facts used (pmcd's PDUs, all big-endian words): the handshake
 * pmcd sends first is a 20-byte ERROR (type 0x7000) whose last word holds
 * the protocol version and the features pmcd offers; the client answers
 * with CREDS (0x700c): one credential word (1 << 24 | 2 << 16 | flags),
 * asking for the credentials feature (1 << 3) when pmcd requires it. pmcd
 * fetches only after a PROFILE (0x7002): header, context number, state 0
 * (include everything), 0 instance domains, one unused word. A FETCH
 * (0x7003) is header, context number, 8 unused bytes, the number of PMIDs
 * and the PMIDs; the reply is a RESULT (0x7001). */
#include <arpa/inet.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "fetch_timer.h"

static uint32_t word(const unsigned char *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return ntohl(v);
}

static void put(unsigned char *p, uint32_t v) {
  v = htonl(v);
  memcpy(p, &v, 4);
}

/* Reads one whole PDU into buf (at most cap bytes). Returns its type, or -1. */
static int read_pdu(int fd, unsigned char *buf, size_t cap) {
  size_t have = 0, len = 12;
  while (have < len) {
    struct pollfd p = {fd, POLLIN, 0};
    ssize_t n;
    if (poll(&p, 1, -1) != 1) return -1;
    n = recv(fd, buf + have, cap - have, 0);
    if (n <= 0) return -1;
    have += (size_t)n;
    if (have >= 12) {
      len = word(buf);
      if (len < 12 || len > cap) return -1;
    }
  }
  return (int)word(buf + 4);
}

int main(int argc, char **argv) {
  static unsigned char buf[1 << 16];
  unsigned char creds[20], profile[28], fetch[32];
  struct sockaddr_un addr;
  unsigned dom, cluster, item;
  long i, n;
  int fd;
  struct fetch_timer t;
  if (argc != 4 || sscanf(argv[2], "%u.%u.%u", &dom, &cluster, &item) != 3) {
    fprintf(stderr, "usage: %s SOCKET PMID N\n", argv[0]);
    return 1;
  }
  n = atol(argv[3]);
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  if (strlen(argv[1]) >= sizeof addr.sun_path) return 1;
  strcpy(addr.sun_path, argv[1]);
  fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) return 1;
  if (read_pdu(fd, buf, sizeof buf) != 0x7000 || word(buf) != 20) return 1;
  put(creds, 20);
  put(creds + 4, 0x700c);
  put(creds + 8, (uint32_t)getpid());
  put(creds + 12, 1);
  put(creds + 16, 1u << 24 | 2u << 16 | (word(buf + 16) & (1u << 3)));
  if (send(fd, creds, sizeof creds, 0) != (ssize_t)sizeof creds) return 1;
  memset(profile, 0, sizeof profile);
  put(profile, sizeof profile);
  put(profile + 4, 0x7002);
  if (send(fd, profile, sizeof profile, 0) != (ssize_t)sizeof profile) return 1;
  memset(fetch, 0, sizeof fetch);
  put(fetch, sizeof fetch);
  put(fetch + 4, 0x7003);
  put(fetch + 24, 1);
  put(fetch + 28, dom << 22 | cluster << 10 | item);
  fetch_timer_start(&t);
  for (i = 0; i < n; i++) {
    if (send(fd, fetch, sizeof fetch, 0) != (ssize_t)sizeof fetch) return 1;
    if (read_pdu(fd, buf, sizeof buf) != 0x7001) return 1;
  }
  fetch_timer_report(&t, "raw floor", "", n);
  close(fd);
  return 0;
}
