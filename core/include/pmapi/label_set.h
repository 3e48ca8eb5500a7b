// pmapi/label_set.h: the label set value type (pmLabelSet), shared by the
// archive reader, the PDU codec and the label services in pmapi/labels.h.
#ifndef PMAPI_LABEL_SET_H_
#define PMAPI_LABEL_SET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "pmapi/types.h"

namespace pmapi {

// One name:value pair (pmLabel): offsets and lengths into the set's JSON.
// The name offset skips the name's opening quote; the value includes its
// quotes when it is a string.
struct LabelEntry {
  uint16_t name = 0;
  uint8_t namelen = 0;
  uint8_t flags = 0;
  uint16_t value = 0;
  uint16_t valuelen = 0;
};

// A set of labels: the instance it belongs to (kInNull for none), the JSON
// object text, and the index of its pairs.
struct LabelSet {
  Inst inst = kInNull;
  std::string json;
  std::vector<LabelEntry> labels;
};

}  // namespace pmapi

#endif  // PMAPI_LABEL_SET_H_
