// pdu_counts.h: counting the PDUs a process sends and receives, by type
// (libpcp's __pmPDUCntIn and __pmPDUCntOut; see pdu_counts.cc).
#ifndef PMAPI_PDU_COUNTS_H_
#define PMAPI_PDU_COUNTS_H_

// The PDU types counted: kPduError (0x7000) to kPduDescs (0x7017).
inline constexpr int kPduTypeCount = 0x18;

extern "C" {
extern unsigned int* __pmPDUCntIn;
extern unsigned int* __pmPDUCntOut;
}

namespace pmapi {

// Counts one PDU of `type` sent (`out`) or received; other types are not
// counted.
void CountPdu(int type, bool out);

}  // namespace pmapi

#endif  // PMAPI_PDU_COUNTS_H_
