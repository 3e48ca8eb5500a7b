#!/usr/bin/env python3
"""Generates the metric tables and name-space files of the built-in linux
and proc agents from PCP's own descriptors.

Names, PMIDs, types, instance domains, semantics and units are interface
facts: this script asks PCP's pminfo (-L, hosting PCP's linux and proc DSOs
in-process) for them and writes

  pmdas/linux/table_<group>.cc, pmdas/proc/table_{proc,cgroup}.cc   (the rows)
  pmdas/linux/root_linux, pmdas/proc/root_proc    (the names)

Only the families the agents compute are written (SERVED below). Help text
is not taken from PCP: it is ours, in pmdas/linux/help and pmdas/proc/help.

  pmdas/tools/gen_tables.py [REPO]
"""
import os
import re
import subprocess
import sys
import tempfile

REPO = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")

# Top-level names asked of PCP, and the prefixes our agents serve. A name
# is served when it starts with one of SERVED and with none of LEFT_OUT.
ASKED = ["kernel", "mem", "disk", "network", "filesys", "swap", "hinv", "tty", "vfs", "zram", "rpc", "nfs", "nfs3", "nfs4", "tape", "fchost", "proc", "cgroup"]
SERVED = ASKED
LEFT_OUT = [
    "proc.hog.",
]

# Output groups: table file -> name prefixes (first match wins).
GROUPS = [
    ("linux/table_kernel.cc", "kKernelRows", ["kernel.", "swap.", "hinv.", "filesys.", "tty.", "vfs.", "rpc.", "nfs.", "nfs3.", "nfs4."]),
    ("linux/table_mem.cc", "kMemRows", ["mem."]),
    ("linux/table_disk.cc", "kDiskRows", ["disk.", "zram.", "tape.", "fchost."]),
    ("linux/table_net_ip.cc", "kNetIpRows", ["network.tcp.", "network.mptcp."]),
    ("linux/table_net.cc", "kNetRows", ["network."]),
    ("proc/table_proc.cc", "kProcRows", ["proc."]),
    ("proc/table_cgroup.cc", "kCgroupRows", ["cgroup."]),
]

TYPES = {
    "32-bit int": "kType32", "32-bit unsigned int": "kTypeU32", "64-bit int": "kType64",
    "64-bit unsigned int": "kTypeU64", "float": "kTypeFloat", "double": "kTypeDouble",
    "string": "kTypeString", "aggregate": "kTypeAggregate",
}
SEMS = {"counter": "kSemCounter", "instant": "kSemInstant", "discrete": "kSemDiscrete"}
SPACE = {"byte": 0, "Kbyte": 1, "Mbyte": 2, "Gbyte": 3, "Tbyte": 4}
TIME = {"nanosec": 0, "microsec": 1, "millisec": 2, "sec": 3, "min": 4, "hour": 5}


def units(text):
    """Returns dim_space, dim_time, dim_count, scale_space, scale_time, scale_count."""
    u = [0, 0, 0, 0, 0, 0]
    if text == "none":
        return u
    num, _, den = text.partition("/")
    for part, sign in ((num, 1), (den, -1)):
        for word in part.split():
            power = 1
            m = re.match(r"(\w+)\^(-?\d+)$", word)
            if m:
                word, power = m.group(1), int(m.group(2))
            if word in SPACE:
                u[0] += sign * power
                u[3] = SPACE[word]
            elif word in TIME:
                u[1] += sign * power
                u[4] = TIME[word]
            elif word == "count":
                u[2] += sign * power
            else:
                raise SystemExit(f"unknown unit word {word!r} in {text!r}")
    return u


def pcp_descriptors():
    work = tempfile.mkdtemp()
    blocks = []
    for f, define in (("root_linux", "LINUX=60"), ("root_proc", "PROC=3")):
        out = subprocess.run(["/usr/lib/pcp/bin/pmcpp", "-D", define, "/var/lib/pcp/pmns/" + f],
                             check=True, capture_output=True, text=True).stdout
        out = "\n".join(l for l in out.split("\n") if not l.startswith("#"))
        blocks += re.findall(r"^(\S+)\s*\{(.*?)^\}", out, re.M | re.S)
    kids = []
    with open(os.path.join(work, "root"), "w") as root:
        for name, body in blocks:
            if name == "root":
                kids += body.split()
            else:
                root.write(f"{name} {{{body}}}\n")
        root.write("root {\n" + "".join(f"    {k}\n" for k in kids) + "}\n")
    with open(os.path.join(work, "pmcd.conf"), "w") as conf:
        conf.write("linux\t60\tdso\tlinux_init\t/var/lib/pcp/pmdas/linux/pmda_linux.so\n")
        conf.write("proc\t3\tdso\tproc_init\t/var/lib/pcp/pmdas/proc/pmda_proc.so\n")
    env = dict(os.environ, PMNS_DEFAULT=os.path.join(work, "root"),
               PCP_PMCDCONF_PATH=os.path.join(work, "pmcd.conf"), PCP_DERIVED_CONFIG="")
    text = subprocess.run(["pminfo", "-L", "-m", "-d"] + ASKED, check=True, env=env,
                          capture_output=True, text=True).stdout
    rows = []
    for block in text.strip().split("\n\n"):
        m = re.match(r"(\S+) PMID: (\d+)\.(\d+)\.(\d+)\n\s+Data Type: (.*?)  InDom: (\S+) .*\n"
                     r"\s+Semantics: (\w+)  Units: (.*)", block.strip())
        if not m:
            raise SystemExit("cannot read: " + block)
        name, dom, cluster, item, typ, indom, sem, unit = m.groups()
        if dom not in ("60", "3"):
            continue  # derived metrics (domain 511) are not the agents'
        serial = -1 if indom == "PM_INDOM_NULL" else int(indom.split(".")[1])
        rows.append((name, int(dom), int(cluster), int(item), TYPES[typ], serial, SEMS[sem], units(unit)))
    return rows


def served(name):
    return any(name.startswith(p) for p in SERVED) and not any(name.startswith(p) for p in LEFT_OUT)


def write_table(path, array, rows):
    with open(os.path.join(REPO, "pmdas", path), "w") as f:
        f.write("// Generated by pmdas/tools/gen_tables.py from PCP 6.0.3's descriptors\n"
                "// (names, PMIDs, types, indoms, semantics, units); do not edit.\n"
                '#include "pmdas/common/metric_table.h"\n\nnamespace pmapi::agent_tables {\n\n'
                f"extern const MetricRow {array}[] = {{\n")
        for name, _, cluster, item, typ, serial, sem, u in rows:
            f.write(f'    {{"{name}", {cluster}, {item}, {typ}, {serial}, {sem}, '
                    f'{{{u[0]}, {u[1]}, {u[2]}, {u[3]}, {u[4]}, {u[5]}}}}},\n')
        f.write(f"}};\nextern const size_t {array}Count = sizeof({array}) / sizeof({array}[0]);\n\n"
                "}  // namespace pmapi::agent_tables\n")


def write_pmns(path, symbol, rows, comment):
    tree = {}
    for name, _, cluster, item, *_ in rows:
        parts = name.split(".")
        for i in range(len(parts)):
            parent = ".".join(parts[:i]) or "root"
            kids = tree.setdefault(parent, [])
            leaf = i == len(parts) - 1
            entry = (parts[i], f"{symbol}:{cluster}:{item}" if leaf else None)
            if entry not in kids:
                kids.append(entry)
    with open(os.path.join(REPO, "pmdas", path), "w") as f:
        f.write(f"/*\n * {comment}\n * Generated by pmdas/tools/gen_tables.py; do not edit.\n */\n")
        for parent, kids in tree.items():
            f.write(f"\n{parent} {{\n")
            for kid, pmid in kids:
                f.write(f"    {kid}\t\t{pmid}\n" if pmid else f"    {kid}\n")
            f.write("}\n")


def main():
    rows = [r for r in pcp_descriptors() if served(r[0])]
    for path, array, prefixes in GROUPS:
        mine = [r for r in rows if next((p for _, _, ps in GROUPS for p in ps if r[0].startswith(p)), None) in prefixes]
        write_table(path, array, mine)
    write_pmns("linux/root_linux", "LINUX", [r for r in rows if r[1] == 60],
               "Names of the built-in Linux agent, with PCP's linux agent's PMIDs.\n"
               " * LINUX stands for the agent's domain (60 in PCP).")
    write_pmns("proc/root_proc", "PROC", [r for r in rows if r[1] == 3],
               "Names of the built-in proc agent, with PCP's proc agent's PMIDs.\n"
               " * PROC stands for the agent's domain (3 in PCP).")
    print(f"{len(rows)} metrics written")


if __name__ == "__main__":
    main()
