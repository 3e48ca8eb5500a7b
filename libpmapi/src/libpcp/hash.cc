// hash.cc: libpcp's chained hash table (__pmHashCtl), which PCP's programs
// (pcp-atop, pmval) use for their own data. Callers walk the table and see
// its order, so the table grows and relinks exactly as libpcp's does: one
// bucket at first; once there are more than four nodes a bucket the size
// doubles and is then rounded up by the steps below; old chains are
// relinked from the last bucket down, each chain from its head, every node
// going to the head of its new chain; a new node goes to the head of its
// chain.
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "pcp_internal.h"

namespace {

int GrownSize(int size) {
  size *= 2;
  if (size % 2) size++;
  if (size % 3) size += 2;
  if (size % 5) size += 2;
  return size;
}

// Moves every node of `old` (of `oldsize` buckets) into hcp's new buckets.
void Relink(__pmHashNode** old, int oldsize, __pmHashCtl* hcp) {
  while (oldsize > 0) {
    __pmHashNode* node = old[--oldsize];
    while (node != nullptr) {
      __pmHashNode* next = node->next;
      unsigned int k = node->key % static_cast<unsigned int>(hcp->hsize);
      node->next = hcp->hash[k];
      hcp->hash[k] = node;
      node = next;
    }
  }
}

// Makes room for the node just counted in hcp->nodes: 0 or -errno.
int MakeRoom(__pmHashCtl* hcp) {
  if (hcp->hsize == 0) {
    hcp->hash = static_cast<__pmHashNode**>(std::calloc(1, sizeof(__pmHashNode*)));
    if (hcp->hash == nullptr) return -errno;
    hcp->hsize = 1;
    return 0;
  }
  if (hcp->nodes / 4 <= hcp->hsize) return 0;
  int grown = GrownSize(hcp->hsize);
  auto** buckets = static_cast<__pmHashNode**>(std::calloc(grown, sizeof(__pmHashNode*)));
  if (buckets == nullptr) return -errno;
  __pmHashNode** old = hcp->hash;
  int oldsize = hcp->hsize;
  hcp->hash = buckets;
  hcp->hsize = grown;
  Relink(old, oldsize, hcp);
  std::free(old);
  return 0;
}

}  // namespace

extern "C" {

// A zeroed table is an empty one, so tables in static storage need no call.
void __pmHashInit(__pmHashCtl* hcp) { std::memset(hcp, 0, sizeof *hcp); }

int __pmHashPreAlloc(int hsize, __pmHashCtl* hcp) {
  hcp->hash = static_cast<__pmHashNode**>(std::calloc(hsize, sizeof(__pmHashNode*)));
  if (hcp->hash == nullptr) return -errno;
  hcp->hsize = hsize;
  return 0;
}

__pmHashNode* __pmHashSearch(unsigned int key, __pmHashCtl* hcp) {
  if (hcp->hsize == 0) return nullptr;
  for (__pmHashNode* hp = hcp->hash[key % hcp->hsize]; hp != nullptr; hp = hp->next) {
    if (hp->key == key) return hp;
  }
  return nullptr;
}

// Adds a node (keys may repeat); 1, or -errno when out of memory.
int __pmHashAdd(unsigned int key, void* data, __pmHashCtl* hcp) {
  hcp->nodes++;
  if (int sts = MakeRoom(hcp); sts < 0) return sts;
  auto* hp = static_cast<__pmHashNode*>(std::malloc(sizeof(__pmHashNode)));
  if (hp == nullptr) return -errno;
  unsigned int k = key % static_cast<unsigned int>(hcp->hsize);
  hp->key = key;
  hp->data = data;
  hp->next = hcp->hash[k];
  hcp->hash[k] = hp;
  return 1;
}

// Removes the node of `key` carrying `data`: 1 if found, else 0.
int __pmHashDel(unsigned int key, void* data, __pmHashCtl* hcp) {
  if (hcp->hsize == 0) return 0;
  __pmHashNode** link = &hcp->hash[key % hcp->hsize];
  for (__pmHashNode* hp = *link; hp != nullptr; link = &hp->next, hp = hp->next) {
    if (hp->key != key || hp->data != data) continue;
    *link = hp->next;
    std::free(hp);
    hcp->nodes--;
    return 1;
  }
  return 0;
}

// Drops the bucket array only, as libpcp does (the nodes are the caller's
// to have freed, and the count is left as it was).
void __pmHashClear(__pmHashCtl* hcp) {
  if (hcp->hsize == 0) return;
  std::free(hcp->hash);
  hcp->hash = nullptr;
  hcp->hsize = 0;
}

void __pmHashFree(__pmHashCtl* hcp) {
  for (int i = 0; i < hcp->hsize; i++) {
    __pmHashNode* hp = hcp->hash[i];
    while (hp != nullptr) {
      __pmHashNode* next = hp->next;
      std::free(hp);
      hp = next;
    }
  }
  __pmHashClear(hcp);
}

// Calls cb on each node, bucket by bucket; the callback's answer says
// whether to go on and whether to delete the node it was given.
void __pmHashWalkCB(__pmHashWalkCallback cb, void* cdata, const __pmHashCtl* hcp) {
  for (int n = 0; n < hcp->hsize; n++) {
    __pmHashNode** link = &hcp->hash[n];
    while (*link != nullptr) {
      __pmHashNode* node = *link;
      switch (cb(node, cdata)) {
        case PM_HASH_WALK_NEXT:
          link = &node->next;
          break;
        case PM_HASH_WALK_DELETE_NEXT:
          *link = node->next;
          std::free(node);
          break;
        case PM_HASH_WALK_DELETE_STOP:
          *link = node->next;
          std::free(node);
          return;
        default:  // PM_HASH_WALK_STOP, or anything unknown
          return;
      }
    }
  }
}

// An iterator kept in the table: START gives the first node, NEXT the next.
__pmHashNode* __pmHashWalk(__pmHashCtl* hcp, __pmHashWalkState state) {
  if (hcp->hsize == 0) return nullptr;
  if (state == PM_HASH_WALK_START) {
    hcp->index = 0;
    hcp->next = hcp->hash[0];
  }
  while (hcp->next == nullptr) {
    if (++hcp->index >= static_cast<unsigned int>(hcp->hsize)) return nullptr;
    hcp->next = hcp->hash[hcp->index];
  }
  __pmHashNode* node = hcp->next;
  hcp->next = node->next;
  return node;
}

}  // extern "C"
