#!/usr/bin/env python3
"""Sweep the archives of PCP's QA suite with our tools and PCP's.

Every archive of pcp-testsuite's archives/ folder (plain, compressed and
multi-volume), the folders given as -a DIR, the multi-archive sets and a
few archive-less folders are read by our pmdumplog, pminfo, pmval and
pmstore the ways users read archives; each command runs beside PCP's own
tool and the two runs' stdout, stderr and exit status are compared.

Usage: sweep.py --ours BINDIR [--pcp BINDIR] [--suite DIR] [--work DIR]
                [--sample FILE] [--known FILE] [--jobs N] [--archive NAME]
                [--qa-selected FILE]

Prints one row per archive, folder, set or QA test (its commands as
identical/total, by tool) and the counts; exits 1 when a run differs and
is not listed in the known file, 77 when PCP's tools or pcp-testsuite
are not installed. Each differing run's outputs are kept in the work
directory.
"""

import argparse
import concurrent.futures
import datetime
import hashlib
import os
import re
import shutil
import shlex
import subprocess
import sys

# Some archives dump to gigabytes: PCP's pmdumplog -a of the largest takes
# minutes on a loaded machine.
TIMEOUT = int(os.environ.get("SWEEP_TIMEOUT", "900"))
STOCK_DERIVED = "/etc/pcp/derived"


def archive_bases(folder):
    """Names of the archives in folder, each once (by its .meta file)."""
    bases = set()
    for name in os.listdir(folder):
        m = re.match(r"(.*)\.meta(\.(xz|bz2|gz|lzma))?$", name)
        if m:
            bases.add(m.group(1))
    return sorted(bases)


def base_env(derived=""):
    env = dict(os.environ)
    env["TZ"] = "UTC"
    env["LC_ALL"] = "C"
    if derived is None:
        env.pop("PCP_DERIVED_CONFIG", None)
    else:
        env["PCP_DERIVED_CONFIG"] = derived
    return env


def run_named(bindir, tool, args, env, cwd):
    """Runs a tool with its bare name as argv[0], so that both tools'
    messages name it alike: (status, stdout, stderr), in memory."""
    exe = os.path.join(bindir, tool)
    try:
        p = subprocess.Popen([tool] + args, executable=exe, env=env, cwd=cwd,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = p.communicate(timeout=TIMEOUT)
        return p.returncode, out, err
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return "timeout", b"", b""
    except OSError as e:
        return "exec failed: %s" % e, b"", b""


def run_to_files(bindir, tool, args, env, cwd, prefix):
    """As run_named, with stdout and stderr written to prefix.out and
    prefix.err (outputs run to gigabytes): (status, digest of both)."""
    exe = os.path.join(bindir, tool)
    with open(prefix + ".out", "wb") as out, open(prefix + ".err", "wb") as err:
        try:
            p = subprocess.Popen([tool] + args, executable=exe, env=env,
                                 cwd=cwd, stdout=out, stderr=err)
            status = p.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            status = "timeout"
        except OSError as e:
            status = "exec failed: %s" % e
    with open(prefix + ".status", "w") as f:
        f.write(str(status) + "\n")
    return status, file_digest(prefix + ".out"), file_digest(prefix + ".err")


def file_digest(path):
    h = hashlib.sha1()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def parse_descs(text):
    """Metric name -> (type, semantics) from `pminfo -d` output."""
    descs = {}
    name = None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            name = line.strip()
            continue
        m = re.search(r"Data Type: (.*?)  InDom", line)
        if m and name:
            descs[name] = [m.group(1), None]
        m = re.search(r"Semantics: (\w+)", line)
        if m and name in descs:
            descs[name][1] = m.group(1)
    return descs


def pick_metrics(descs):
    """One metric of each type and semantics pair, in name order."""
    chosen = {}
    for name in sorted(descs):
        key = tuple(descs[name])
        if key not in chosen:
            chosen[key] = name
    return [chosen[k] for k in sorted(chosen, key=lambda k: chosen[k])]


def parse_span(label_text):
    """Seconds from the archive's start to its end, from `pmdumplog -l`."""
    stamps = []
    for line in label_text.splitlines():
        m = re.search(r"(commencing|ending)\s+\w+ (\w+ +\d+ [\d:.]+ \d+)",
                      line)
        if m:
            text = re.sub(r" +", " ", m.group(2))
            try:
                stamps.append(datetime.datetime.strptime(
                    text, "%b %d %H:%M:%S.%f %Y"))
            except ValueError:
                pass
    if len(stamps) == 2:
        return max(0.0, (stamps[1] - stamps[0]).total_seconds())
    return 0.0


def archive_commands(pcp, suite, base):
    """The command lines run on one archive (tool, args, derived)."""
    arch = os.path.join("archives", base)
    env = base_env()
    _, dtext, _ = run_named(pcp, "pminfo", ["-a", arch, "-d"], env, suite)
    _, ltext, _ = run_named(pcp, "pmdumplog", ["-l", arch], env, suite)
    descs = parse_descs(dtext.decode("utf-8", "replace"))
    names = sorted(descs)
    span = parse_span(ltext.decode("utf-8", "replace"))
    cmds = []
    for flags in (["-a"], ["-d"], ["-i"], ["-L"], ["-m"], ["-t"], ["-e"],
                  ["-l"], ["-x", "-m"], ["-z", "-m"], ["-M", "-m"],
                  ["-s", "-m"], ["-r", "-m"], ["-I"], ["-h"]):
        cmds.append(("pmdumplog", flags + [arch], ""))
    for window in (["-S", "+30sec", "-T", "+10min"],
                   ["-S", "-5min"], ["-T", "-1min", "-x"]):
        cmds.append(("pmdumplog", window + [arch], ""))
    if names:
        ops = [names[0], names[-1]]
        cmds.append(("pmdumplog", [arch] + ops, ""))
        cmds.append(("pmdumplog", ["-d", arch, names[len(names) // 2]], ""))
    for flags in (["-f"], ["-dTtml"], ["-F"], ["-x"], ["-I"], ["-s"]):
        cmds.append(("pminfo", ["-a", arch] + flags, ""))
    cmds.append(("pminfo", ["-a", arch, "-c", STOCK_DERIVED, "-f"], ""))
    cmds.append(("pminfo", ["-a", arch, "-f"], None))
    step1 = max(1, int(span / 13)) if span else 1
    step2 = max(1, int(span / 4)) if span else 10
    for m in pick_metrics(descs):
        cmds.append(("pmval", ["-U", arch, "-s", "40", m], ""))
        cmds.append(("pmval", ["-a", arch, "-t", f"{step1}sec", "-s", "15",
                               m], ""))
        cmds.append(("pmval", ["-a", arch, "-t", f"{step2}sec", "-s", "6",
                               "-r", m], ""))
    cmds.append(("pmstore", ["-a", arch, names[0] if names else "x", "1"],
                 ""))
    return cmds


def set_commands(target):
    """The command lines run on a folder or a multi-archive set."""
    cmds = []
    for flags in (["-f"], ["-dTtml"], ["-F"], ["-x"]):
        cmds.append(("pminfo", ["-a", target] + flags, ""))
    cmds.append(("pmdumplog", ["-a", target], ""))
    cmds.append(("pmdumplog", ["-l", target], ""))
    return cmds


def set_pmval(pcp, suite, target):
    env = base_env()
    _, dtext, _ = run_named(pcp, "pminfo", ["-a", target, "-d"], env, suite)
    cmds = []
    for m in pick_metrics(parse_descs(dtext.decode("utf-8", "replace")))[:6]:
        cmds.append(("pmval", ["-U", target, "-s", "40", m], ""))
        cmds.append(("pmval", ["-a", target, "-t", "1min", "-s", "20", m],
                     ""))
    return cmds


QA_TOOL = re.compile(r"(?:^|[\s;(`])(pminfo|pmval|pmdumplog|pmstore|pmevent)\s")
QA_CUT = re.compile(r"\s(?:\||\|\||&&|;|>|>>|2>|2>&1|<)\s?|\s\d?>\S|\)")


def qa_commands(suite, selected):
    """(test, argv) for each command of a QA test outside the harness's
    selection that runs one of the tools on an archive of the suite:
    the command alone, cut before any pipe or redirection, kept only when
    nothing in it is left to the script (no variable but $here, no -D)."""
    found = []
    seen = set()
    for name in sorted(os.listdir(suite)):
        if not re.fullmatch(r"\d{3,4}", name) or name in selected:
            continue
        with open(os.path.join(suite, name), errors="replace") as f:
            text = re.sub(r"\\\n", " ", f.read())
        for line in text.splitlines():
            argv = qa_command(line)
            if argv is None or " ".join(argv) in seen:
                continue
            seen.add(" ".join(argv))
            found.append((name, argv))
    return found


def qa_command(line):
    line = line.strip()
    m = QA_TOOL.search(line)
    if line.startswith("#") or not m:
        return None
    cmd = QA_CUT.split(line[m.start(1):])[0]
    cmd = cmd.replace("$here/", "").replace("${here}/", "")
    if "$" in cmd or "`" in cmd:
        return None
    try:
        argv = shlex.split(cmd)
    except ValueError:
        return None
    if not any(re.match(r"(-a)?(archives|badarchives)/", t) for t in argv):
        return None
    if any(t.startswith("-D") for t in argv):
        return None
    return argv


def qa_groups(suite, selected_file):
    with open(selected_file) as f:
        selected = set(f.read().split())
    groups = {}
    for name, argv in qa_commands(suite, selected):
        groups.setdefault("qa/" + name, []).append((argv[0], argv[1:], ""))
    return sorted(groups.items())


def cmd_key(tool, args, derived):
    text = " ".join([tool] + args)
    if derived is None:
        text += "  [stock derived]"
    return text


def compare(pcp, ours, suite, work, cmd):
    """Runs one command with both tools: None when identical, else the
    folder holding both runs' outputs (removed when they agree)."""
    tool, args, derived = cmd
    env = base_env(derived)
    key = cmd_key(*cmd)
    path = os.path.join(work, "diff-" + hashlib.sha1(key.encode()).hexdigest()[:12])
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "command"), "w") as f:
        f.write(key + "\n")
    a = run_to_files(pcp, tool, args, env, suite, os.path.join(path, "pcp"))
    b = run_to_files(ours, tool, args, env, suite, os.path.join(path, "ours"))
    if a == b:
        shutil.rmtree(path)
        return None
    return path


def load_known(path):
    known = {}
    if not path or not os.path.exists(path):
        return known
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            key, _, reason = line.partition("\t")
            known[key] = reason
    return known


def make_groups(args, suite):
    """(row label, [commands]) for every archive, folder and set."""
    adir = os.path.join(suite, "archives")
    bases = archive_bases(adir)
    if args.archive:
        bases = [b for b in bases if b in args.archive]
    sample = None
    if args.sample:
        with open(args.sample) as f:
            sample = {l.split()[0] for l in f
                      if l.strip() and not l.startswith("#")}
    bases = [b for b in bases if sample is None or b in sample]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        cmds = pool.map(lambda b: archive_commands(args.pcp, suite, b), bases)
        groups = list(zip(bases, cmds))
    folders = sorted(d for d in os.listdir(adir)
                     if os.path.isdir(os.path.join(adir, d)))
    for d in folders:
        label = d + "/"
        if sample is not None and label not in sample:
            continue
        if args.archive and label not in args.archive:
            continue
        target = os.path.join("archives", d)
        groups.append((label, set_commands(target) +
                       set_pmval(args.pcp, suite, target)))
        members = archive_bases(os.path.join(adir, d))
        if len(members) > 1:
            label = d + "/{" + ",".join(members) + "}"
            target = ",".join(os.path.join("archives", d, m)
                              for m in members)
            if sample is None or d + "/," in sample:
                groups.append((label, set_commands(target) +
                               set_pmval(args.pcp, suite, target)))
    if sample is None or "(no-archives)" in sample:
        groups.append(("(no-archives)", empty_commands(args.work)))
    if args.qa_selected:
        for label, cmds in qa_groups(suite, args.qa_selected):
            if (sample is None or label in sample) and (
                    not args.archive or label in args.archive):
                groups.append((label, cmds))
    return groups


def empty_commands(work):
    empty = os.path.join(work, "empty-folder")
    other = os.path.join(work, "folder-without-archives")
    os.makedirs(empty, exist_ok=True)
    os.makedirs(other, exist_ok=True)
    with open(os.path.join(other, "notes.txt"), "w") as f:
        f.write("not an archive\n")
    cmds = []
    for target in (empty, other):
        cmds.append(("pminfo", ["-a", target, "-f"], ""))
        cmds.append(("pmval", ["-a", target, "sample.long.one"], ""))
        cmds.append(("pmdumplog", ["-l", target], ""))
    return cmds


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ours", required=True)
    p.add_argument("--pcp", default="/usr/bin")
    p.add_argument("--suite", default="/var/lib/pcp/testsuite")
    p.add_argument("--work", default="/tmp/corpus-sweep")
    p.add_argument("--sample")
    p.add_argument("--known")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("--archive", action="append")
    p.add_argument("--qa-selected",
                   help="the QA harness's selection (tests/pcpqa/selected.txt):"
                   " the archive commands of the QA tests outside it are run")
    args = p.parse_args()
    for tool in ("pminfo", "pmval", "pmdumplog", "pmstore"):
        if not os.access(os.path.join(args.pcp, tool), os.X_OK):
            print("sweep: skipped: PCP's %s is not installed" % tool)
            return 77
    if not os.path.isdir(os.path.join(args.suite, "archives")):
        print("sweep: skipped: pcp-testsuite is not installed")
        return 77
    args.ours = os.path.abspath(args.ours)
    args.work = os.path.abspath(args.work)
    os.makedirs(args.work, exist_ok=True)
    known = load_known(args.known)
    groups = make_groups(args, args.suite)

    jobs = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for label, cmds in groups:
            for cmd in cmds:
                jobs.append((label, cmd, pool.submit(
                    compare, args.pcp, args.ours, args.suite, args.work,
                    cmd)))
        rows = {}
        failed = []
        listed = 0
        for label, cmd, fut in jobs:
            diff = fut.result()
            key = cmd_key(*cmd)
            row = rows.setdefault(label, {"same": 0, "total": 0,
                                          "tools": {}})
            row["total"] += 1
            tool = row["tools"].setdefault(cmd[0], [0, 0])
            tool[1] += 1
            if diff is None:
                row["same"] += 1
                tool[0] += 1
                continue
            if key in known:
                listed += 1
                continue
            failed.append((key, diff))

    report(groups, rows, failed, listed)
    return 1 if failed else 0


def report(groups, rows, failed, listed):
    tools = ("pmdumplog", "pminfo", "pmval", "pmstore")
    print("%-44s %9s %9s %9s %9s %9s" % (("archive",) + tools + ("all",)))
    totals = {t: [0, 0] for t in tools}
    for label, _ in groups:
        row = rows.get(label)
        if not row:
            continue
        cells = []
        for t in tools:
            s, n = row["tools"].get(t, [0, 0])
            totals[t][0] += s
            totals[t][1] += n
            cells.append("%d/%d" % (s, n) if n else "-")
        cells.append("%d/%d" % (row["same"], row["total"]))
        print("%-44s %9s %9s %9s %9s %9s" % tuple([label[:44]] + cells))
    same = sum(v[0] for v in totals.values())
    total = sum(v[1] for v in totals.values())
    print()
    print("archives, folders and sets: %d" % len(rows))
    for t in tools:
        print("%-10s identical %d/%d" % (t, totals[t][0], totals[t][1]))
    print("all        identical %d/%d; listed in known: %d; unexpected: %d"
          % (same, total, listed, len(failed)))
    for key, path in failed:
        print("DIFF %s  (%s)" % (key, path))


if __name__ == "__main__":
    sys.exit(main())
