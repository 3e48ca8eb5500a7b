#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets from the test data.

    tests/fuzz/make_corpus.py          (from the top of the source tree)

Each target's seeds go to tests/fuzz/corpus/<target>/, replacing what the
script wrote before (files named seed-*). Inputs the fuzzer finds later may
be added beside them under other names. Seeds follow each target's input
layout (see the comment at the top of tests/fuzz/targets/<target>_fuzz.cc).
"""
import glob
import hashlib
import os
import struct
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(TOP, "tests", "data")
OUT = os.path.join(TOP, "tests", "fuzz", "corpus")

# PDU type -> index of its decoder in pdu_fuzz.cc.
PDU_DECODER = {0x7000: 1, 0x700C: 3, 0x7005: 4, 0x7017: 5, 0x7007: 6, 0x7009: 7,
               0x7013: 8, 0x700D: 9, 0x7016: 9, 0x700E: 10, 0x7001: 11, 0x7015: 11}

# .meta record type -> index of its decoder in archive_record_fuzz.cc.
META_DECODER = {1: 1, 2: 2, 5: 3, 6: 4, 3: 5, 7: 6, 4: 7}

LABEL_BYTES = {2: 132, 3: 808}


class Seeds:
    def __init__(self, target):
        self.dir = os.path.join(OUT, target)
        os.makedirs(self.dir, exist_ok=True)
        for old in glob.glob(os.path.join(self.dir, "seed-*")):
            os.remove(old)
        self.seen = set()

    def add(self, name, data):
        digest = hashlib.sha1(data).hexdigest()
        if digest in self.seen:
            return
        self.seen.add(digest)
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:60]
        with open(os.path.join(self.dir, "seed-%s-%s" % (safe, digest[:8])), "wb") as f:
            f.write(data)


def tsv(name):
    with open(os.path.join(DATA, "oracle", name + ".tsv"), encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            yield line.rstrip("\n").split("\t")


def unescape(s):
    return s.encode("utf-8", "surrogateescape").decode("unicode_escape").encode("latin-1")


def archives():
    """Yields (name, meta, index or None, volume 0) for uncompressed archives."""
    for meta in sorted(glob.glob(os.path.join(DATA, "archives", "*", "**", "*.meta"), recursive=True)):
        base = meta[:-5]
        if not os.path.exists(base + ".0"):
            continue
        index = base + ".index"
        read = lambda p: open(p, "rb").read()
        yield (os.path.basename(base), read(meta), read(index) if os.path.exists(index) else None,
               read(base + ".0"))


def meta_records(meta, version):
    at = LABEL_BYTES.get(version, 132)
    while at + 8 <= len(meta):
        length, rtype = struct.unpack(">II", meta[at:at + 8])
        if length < 12 or at + length > len(meta):
            return
        yield rtype, meta[at + 8:at + length - 4]
        at += length


def data_records(volume, version):
    at = LABEL_BYTES.get(version, 132)
    while at + 4 <= len(volume):
        (length,) = struct.unpack(">I", volume[at:at + 4])
        if length < 12 or at + length > len(volume):
            return
        yield volume[at + 4:at + length - 4]
        at += length


def version_of(meta):
    return meta[7] if len(meta) >= 8 else 2


def pdu_seeds():
    s = Seeds("pdu")
    for row in tsv("pdu"):
        pdu = bytes.fromhex(row[1])
        (ptype,) = struct.unpack(">I", pdu[4:8])
        which = PDU_DECODER.get(ptype, 0)
        if row[0].startswith("handshake"):
            which = 2
        s.add(row[0], bytes([which]) + pdu)
        s.add(row[0] + "-header", bytes([0]) + pdu)


# The requests pmcd forwards to an agent (pmda_pdu_fuzz.cc).
AGENT_REQUESTS = {0x7000, 0x7001, 0x7002, 0x7003, 0x7004, 0x7006, 0x7008, 0x700D,
                  0x700E, 0x700F, 0x7010, 0x7011, 0x7012}


def pmda_pdu_seeds():
    s = Seeds("pmda_pdu")
    stream = b""
    for row in tsv("pdu"):
        pdu = bytes.fromhex(row[1])
        (ptype,) = struct.unpack(">I", pdu[4:8])
        if ptype in AGENT_REQUESTS and not row[0].startswith("handshake"):
            s.add(row[0], pdu)
            stream += pdu
    s.add("all-requests", stream)


def archive_record_seeds():
    s = Seeds("archive_record")
    for name, meta, index, volume in archives():
        v = version_of(meta)
        s.add(name + "-label", bytes([0]) + meta[:LABEL_BYTES.get(v, 132)])
        per_type = {}
        for rtype, payload in meta_records(meta, v):
            if rtype not in META_DECODER or per_type.get(rtype, 0) >= 3:
                continue
            per_type[rtype] = per_type.get(rtype, 0) + 1
            s.add("%s-meta%d" % (name, rtype), bytes([META_DECODER[rtype]]) + payload)
        if index is not None:
            s.add(name + "-index", bytes([8 if v == 2 else 9]) + index[LABEL_BYTES.get(v, 132):])
        for n, rec in enumerate(data_records(volume, v)):
            if n >= 3:
                break
            s.add("%s-data" % name, bytes([10 if v == 2 else 11]) + rec)


def archive_open_seeds():
    s = Seeds("archive_open")
    for name, meta, index, volume in archives():
        if len(meta) + len(volume) > 40000:
            continue
        index = index or b""
        s.add(name, struct.pack(">II", len(meta), len(index)) + meta + index + volume)


def pmns_seeds():
    s = Seeds("pmns")
    for path in sorted(glob.glob(os.path.join(DATA, "pmns", "**", "*"), recursive=True)):
        if os.path.isfile(path) and os.path.getsize(path) < 20000:
            data = open(path, "rb").read()
            if b"#include" not in data:
                s.add(os.path.basename(path), data)


def column_seeds(target, table, column, prefix=b"", limit=600):
    s = Seeds(target)
    for n, row in enumerate(tsv(table)):
        if n >= limit:
            break
        if len(row) > column:
            s.add("%s-%d" % (table, n), prefix + unescape(row[column]))


def timewindow_seeds():
    s = Seeds("timewindow")
    for n, row in enumerate(tsv("timewindow")):
        if n % 60 != 0:
            continue
        zone = 0 if row[1] == "UTC" else 4
        fields = [row[1]] if zone == 4 else []
        if row[0] == "T":
            fields.append(row[4])
        else:
            fields += ["" if f == "\\N" else f for f in row[4:8]]
        s.add("timewindow-%d" % n, bytes([zone]) + "\n".join(fields).encode())


def pmda_cache_seeds():
    s = Seeds("pmda_cache")
    for n, row in enumerate(tsv("pmdacache")):
        words = row[0].split(" ", 2)
        if words[0] == "writefile" and len(words) == 3:
            s.add("writefile-%d" % n, unescape(words[2]))
        elif words[0] == "file" and len(row) > 1:
            s.add("file-%d" % n, unescape(row[1]).replace(b"NOW", b"1700000000"))


def events_seeds():
    s = Seeds("events")
    for n, row in enumerate(tsv("events")):
        words = row[0].split()
        if words[0] in ("get", "gethr") and len(row) > 1:
            try:
                block = bytes.fromhex(row[1].split()[0])
            except (ValueError, IndexError):
                continue  # an error code, not a block
            s.add("%s-%d" % (words[0], n), bytes([1 if words[0] == "gethr" else 0]) + block[4:])
        elif words[0] in ("unpack", "unpackhr") and len(words) > 1:
            block = bytes.fromhex(words[1])
            s.add("%s-%d" % (words[0], n), bytes([1 if words[0] == "unpackhr" else 0]) + block[4:])


def labels_seeds():
    s = Seeds("labels")
    texts = [b'{"hostname":"vm","agent":"sample"}', b'{}', b'{"a":1,"b":[1,2,{"c":null}],"d":true}',
             b' { "spaced" : "value" , "n" : -1.5e3 } ', b'{"dup":1,"dup":2}', b'{"1bad":1}',
             b'{"nested":{"x":{"y":"z"}}}', b'{"s":"esc\\"aped\\u00e9"}']
    for name, meta, index, volume in archives():
        v = version_of(meta)
        for rtype, payload in meta_records(meta, v):
            if rtype in (3, 7):
                for start in range(len(payload)):
                    if payload[start:start + 1] == b"{":
                        end = payload.find(b"}", start)
                        if end > 0:
                            texts.append(payload[start:end + 1])
                        break
    for n, t in enumerate(texts[:200]):
        s.add("labels-%d" % n, bytes([n % 8]) + t)


def localspec_seeds():
    s = Seeds("localspec")
    specs = [b"add,29,/var/lib/pcp/pmdas/sample/pmda_sample.so,sample_init", b"del,29",
             b"del,,/x.so", b"clear", b"clearx", b"bogus", b"add,999,x,y", b"add,29,x.so,",
             b"add,,x,y", b"del,29,x.so,init", b"add,-1,x,y", b"add", b"add,", b"del,,"]
    for n, spec in enumerate(specs):
        s.add("localspec-%d" % n, spec)


def pmda_root_seeds():
    """Replies of pmdaroot (pmda_root_fuzz.cc): host-order 32-bit words."""
    s = Seeds("pmda_root")
    words = lambda *w: struct.pack("=%di" % len(w), *w)
    s.add("info", words(0x9000, 24, 0, 2, 7, 0))
    s.add("info-newer", words(0x9000, 24, 0, 3, 7, 0))
    s.add("hostname", words(0x9002, 28, 0, 2, 42, 4) + b"box1")
    s.add("hostname-long", words(0x9002, 24 + 200, 0, 2, 42, 200) + b"h" * 200)
    s.add("processid", words(0x9004, 24, 0, 2, 99, 0))
    s.add("cgroup-missing", words(0x9006, 24, -12383, 2, 0, 0))
    s.add("cgroup-short", words(0x9006, 24, 0, 2, 0, 50) + b"abc")
    s.add("start", words(0x9008, 104, 0, 2, 1234) + bytes(84))
    s.add("stop", words(0x900A, 32, 0, 2, 5, 256, 0, 0))
    s.add("stop-error", words(0x900A, 32, -3, 2, 5, 0, 0, 0))


def host_connect_seeds():
    """What a peer says to a connecting client (host_connect_fuzz.cc): the
    first byte picks the spec (odd: through a proxy, which greets first)."""
    s = Seeds("host_connect")
    rows = list(tsv("pdu"))
    replies = [bytes.fromhex(r[1]) for r in rows if struct.unpack(">I", bytes.fromhex(r[1])[4:8])[0] in (0x7005, 0x7000)
               and not r[0].startswith("handshake")]
    greeting = b"pmproxy-server 1\n"
    for row in rows:
        if not row[0].startswith("handshake"):
            continue
        hello = bytes.fromhex(row[1])
        for choice in range(4):
            prefix = greeting if choice in (1, 3) else b""
            s.add("%s-%d" % (row[0], choice), bytes([choice]) + prefix + hello)
            for i, reply in enumerate(replies[:3]):
                s.add("%s-%d-reply%d" % (row[0], choice, i), bytes([choice]) + prefix + hello + reply)
    # pmcd offering authentication (feature 0x4), then its mechanisms in an
    # AUTH PDU, then the error it sends for a failed exchange
    auth_hello = struct.pack(">iiiiI", 20, 0x7000, 0, 0, (2 << 24) | 0x0e04)
    offer = lambda m: struct.pack(">iiii", 16 + len(m), 0x7011, 0, 0) + m
    error = struct.pack(">iiii", 16, 0x7000, 0, -21357)
    for choice in (4, 5):
        for mechs in (b"PLAIN", b"PLAIN LOGIN CRAM-MD5", b"DIGEST-MD5", b""):
            s.add("auth-%d-%s" % (choice, mechs.decode() or "none"), bytes([choice]) + auth_hello + offer(mechs))
            s.add("auth-%d-%s-error" % (choice, mechs.decode() or "none"),
                  bytes([choice]) + auth_hello + offer(mechs) + error)
    s.add("greeting-wrong", bytes([1]) + b"pmproxy-server 2\n")
    s.add("greeting-long", bytes([1]) + b"x" * 80)


def main():
    pdu_seeds()
    host_connect_seeds()
    pmda_pdu_seeds()
    archive_record_seeds()
    archive_open_seeds()
    pmns_seeds()
    column_seeds("units", "units_parse", 0, limit=400)
    column_seeds("interval", "interval", 0)
    column_seeds("metricspec", "metricspec", 0, prefix=b"\x00")
    timewindow_seeds()
    pmda_cache_seeds()
    events_seeds()
    labels_seeds()
    localspec_seeds()
    pmda_root_seeds()
    for target in sorted(os.listdir(OUT)):
        print("%-16s %d seeds" % (target, len(os.listdir(os.path.join(OUT, target)))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
