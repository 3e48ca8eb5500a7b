#!/bin/sh
# Records the seeds of the host_conversation fuzz target: real
# conversations with PCP's pmcd. A private pmcd (scripts/pmcd-private.sh)
# runs behind the recording relay (bench/many_hosts/relay.cc, --record),
# and the target itself plays each scenario against the relay
# ($FUZZ_CONVERSATION_PEER); what pmcd said on each connection becomes a
# stream of a seed. Each seed is also cut after every whole PDU, so the
# corpus starts with conversations that end at every step.
#
#   tests/fuzz/record_conversations.sh BUILD_DIR
#
# BUILD_DIR holds replay_host_conversation (or fuzz_host_conversation).
# Writes tests/fuzz/corpus/host_conversation/seed-*.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
target="$build/tests/fuzz/replay_host_conversation"
[ -x "$target" ] || target="$build/tests/fuzz/fuzz_host_conversation"
work=$(mktemp -d)
out="$top/tests/fuzz/corpus/host_conversation"
cleanup() {
  [ -z "${relay_pid:-}" ] || kill "$relay_pid" 2>/dev/null || true
  "$top/scripts/pmcd-private.sh" stop "$work/pmcd" || true
  rm -rf "$work"
}
trap cleanup EXIT

"$top/scripts/pmcd-private.sh" start "$work/pmcd" >"$work/env"
port=$(sed -n 's/^PMCD_PORT=//p' "$work/env")
c++ -std=c++20 -O2 "$top/bench/many_hosts/relay.cc" -o "$work/relay"
mkdir -p "$work/rec"
# The relay takes the first port from 47000 up that it can listen on.
relay_port=47000
while :; do
  "$work/relay" --delay-ms 0 --record "$work/rec" "$relay_port:127.0.0.1:$port" >"$work/relay.out" 2>&1 &
  relay_pid=$!
  until grep -q ready "$work/relay.out" || ! kill -0 "$relay_pid" 2>/dev/null; do sleep 0.1; done
  grep -q ready "$work/relay.out" && break
  relay_port=$((relay_port + 1))
  [ "$relay_port" -lt 47100 ] || { cat "$work/relay.out" >&2; exit 1; }
done

# Scenario 0 (a host context) makes connection 0; scenario 1 (a group of
# three hosts) connections 1, 2 and 3.
printf '\000' >"$work/context"
printf '\001' >"$work/group"
FUZZ_CONVERSATION_PEER="127.0.0.1:$relay_port" "$target" "$work/context" >/dev/null
FUZZ_CONVERSATION_PEER="127.0.0.1:$relay_port" "$target" "$work/group" >/dev/null

mkdir -p "$out"
python3 - "$work/rec" "$out" <<'PY'
import hashlib, os, struct, sys
rec, out = sys.argv[1], sys.argv[2]
sep = b"\xffNXT"
conn = [open(os.path.join(rec, "conn-%04d.bin" % i), "rb").read() for i in range(4)]

def pdu_ends(stream):
    ends, at = [], 0
    while at + 8 <= len(stream):
        at += struct.unpack(">i", stream[at:at + 4])[0]
        ends.append(at)
    return ends

def save(name, data):
    digest = hashlib.sha1(data).hexdigest()[:8]
    with open(os.path.join(out, "seed-%s-%s" % (name, digest)), "wb") as f:
        f.write(data)

save("context", b"\x00" + conn[0])
for end in pdu_ends(conn[0])[:-1]:
    save("context-cut%d" % end, b"\x00" + conn[0][:end])
group = conn[1:4]
save("group", b"\x01" + sep.join(group))
for end in pdu_ends(group[0])[:-1]:
    save("group-cut%d" % end, b"\x01" + sep.join([group[0][:end]] + group[1:]))
PY
ls "$out" | wc -l
