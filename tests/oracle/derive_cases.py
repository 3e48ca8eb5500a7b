#!/usr/bin/env python3
"""Writes tests/oracle/derive_cases.txt, the derived metric cases that
tests/oracle/derive.c replays (with PCP's libpcp to make the table, with
this library to check it). Run by hand when the cases change."""
import itertools
import os
import random

SMALL = "reference/small-v3/small-v3"
SCALAR = ["sample.seconds", "sample.milliseconds", "sample.drift", "sample.step",
          "sample.long.million", "sample.float.ten", "sample.longlong.ten",
          "sample.double.million", "sample.byte_ctr", "sample.ulonglong.million",
          "sample.ulong.hundred", "sample.negative.instant.m_32", "disk.all.read",
          "disk.all.write_bytes", "mem.physmem", "mem.util.used", "swap.used",
          "hinv.ncpu", "hinv.physmem", "kernel.all.pswitch", "kernel.all.cpu.user",
          "pmcd.seqnum"]
SETS = ["sample.colour", "sample.bin", "sample.mirage", "sample.ulong.bin_ctr",
        "disk.dev.read", "network.interface.in.bytes", "kernel.percpu.cpu.user",
        "kernel.all.load"]
STRINGS = ["sample.string.hullo", "sample.lights", "kernel.uname.release",
           "sample.aggregate.hullo"]
NARROW = ["sample.seconds", "sample.drift", "sample.step", "sample.long.million",
          "sample.float.ten", "sample.byte_ctr", "sample.ulong.hundred",
          "sample.negative.instant.m_32", "hinv.ncpu", "hinv.physmem", "pmcd.seqnum",
          "sample.colour", "sample.bin", "sample.mirage", "sample.ulong.bin_ctr",
          "kernel.all.load"]
FUNCS = ["avg", "count", "delta", "max", "min", "sum", "rate", "instant", "defined"]
OPS = ["+", "-", "*", "/", "<", "<=", "==", ">=", ">", "!=", "&&", "||"]

SYNTAX = r"""a b
a +
+ a
a + + b
(a
a)
a * )
-
!
a &
a ? b
a ? b :
avg(
avg(a
avg(3)
a[foo
a ) b
a : b
a , b
a ( b
a + b : c
(a + b
(a + b) : c
x + (a +
x + (a : b)
x * (a
3 b
3 +
3 3
3.5.5
avg(a) b
avg(a) +
avg a
count(a
defined(
defined(a
defined(3)
mkconst(
mkconst(3
mkconst(3,
mkconst(3, type
mkconst(3, type=
mkconst(3, type=U64
mkconst(3, type=U64,)
mkconst(a, type=U64)
mkconst(3, type=bar)
mkconst(3.5, type=U64)
mkconst(3, units="foo")
mkconst(3, semantics=bogus)
mkconst(3, units=4)
rescale(
rescale(a
rescale(a,
rescale(a, 3)
rescale(a, "sec"
rescale(a, "bogus")
scalar(
scalar(a
scalar(a b)
matchinst(
matchinst(/x/
matchinst(/x/,
matchinst(/x/, a
matchinst(/x, a)
matchinst(/(/, a)
matchinst(!, a)
a ? b : c d
a ? : b
? a
: a
= a
a = b
a ==
a == == b
a && && b
a < b <
a[x] b
(a)[x
"str"
a "str"
a + "str"
$
a + $
a ~ b
a | b
a & b
99999999999
4294967296
4294967295 +
a.b.c d.e
type
units + 1
semantics
a + type
sum(a) (
a || || b
!(a
-(a
(a))
((a)
a * (b + (c
avg(a)(b)
rate(a) rate(b)
a ? b ? c : d
a ? b : c ? d
a,b
,a
)a
]a
[a]
a[x][y]
a[x
a[x\]
a ! b
a !! b
!= a
<= a
&& a
|| a
/ a
* a
a / / b
a - - - b
a--
avg()
count()
delta(a, b)
instant(3)
anon()
anon(PM_TYPE_32
scalar()
scalar(a,)
rescale(a, "sec", b)
matchinst(/x/, a, b)
matchinst(/x/ /y/, a)
mkconst(3, type=U32, type=32)
mkconst(3.5, type=float, units="sec", semantics=instant)
""".strip("\n").split("\n")


def random_expr(rng, depth):
    """A random well-formed expression over small-v3's metrics."""
    metrics = SCALAR[:15] + SETS
    funcs = ["avg", "count", "delta", "max", "min", "sum", "rate", "instant"]
    r = rng.random()
    if depth > 3 or r < 0.3:
        c = rng.random()
        if c < 0.15:
            return str(rng.randint(0, 100))
        if c < 0.2:
            return "%.2f" % rng.uniform(0, 10)
        return rng.choice(metrics)
    if r < 0.45:
        return "%s(%s)" % (rng.choice(funcs), rng.choice(metrics))
    if r < 0.5:
        return "-" + random_expr(rng, depth + 1)
    if r < 0.55:
        return "(%s)" % random_expr(rng, depth + 1)
    if r < 0.6:
        return "%s ? %s : %s" % tuple(random_expr(rng, depth + 1) for _ in range(3))
    if r < 0.63:
        return "scalar(%s)" % random_expr(rng, depth + 1)
    if r < 0.66:
        units = rng.choice(["sec", "Kbyte", "count", "Mbyte/sec", "millisec"])
        return 'rescale(%s, "%s")' % (random_expr(rng, depth + 1), units)
    if r < 0.69:
        pattern = rng.choice(["1", "bin-[1-4]", "^r", "."])
        return "matchinst(/%s/, %s)" % (pattern, random_expr(rng, depth + 1))
    op = rng.choice(["+", "-", "*", "/", "<", "==", ">=", "&&", "||", "!="])
    return "%s %s %s" % (random_expr(rng, depth + 1), op, random_expr(rng, depth + 1))


def random_syntax(n):
    """Random token sequences, mostly syntax errors."""
    toks = ["a", "sample.drift", "3", "4.5", ".", "+", "-", "*", "/", "(", ")", "?", ":",
            "<", "<=", "==", ">=", ">", "!=", "&&", "||", "!", ",", "[x]", '"s"', "avg(",
            "count(", "delta(", "rate(", "defined(", "mkconst(", "rescale(", "scalar(",
            "type", "=", "units", "U64", "&", "$", "99999999999"]
    rng = random.Random(11)
    out = []
    while len(out) < n:
        s = " ".join(rng.choice(toks) for _ in range(rng.randint(1, 9)))
        out.append("a " + s if s[0] in "@#" else s)
    return out


def random_cases(n):
    rng = random.Random(5)
    return [random_expr(rng, 0) for _ in range(n)]


def main():
    out = ["# Generated by derive_cases.py; see tests/oracle/derive.c.",
           "@ %s forw:4" % SMALL]
    cases = []
    cases += SYNTAX
    for m in SCALAR + SETS + STRINGS:
        cases.append(m)
        for f in FUNCS:
            cases.append("%s(%s)" % (f, m))
        cases.append("-%s" % m)
        # PCP's ! leaves the upper bytes of a 64-bit result unset
        if m in NARROW:
            cases.append("!%s" % m)
    pairs = [("sample.seconds", "sample.milliseconds"), ("disk.all.read", "kernel.all.pswitch"),
             ("mem.util.used", "swap.used"), ("mem.util.used", "hinv.physmem"),
             ("sample.colour", "sample.drift"), ("sample.bin", "sample.ulong.bin_ctr"),
             ("sample.colour", "sample.bin"), ("sample.step", "sample.long.million"),
             ("kernel.all.cpu.user", "sample.milliseconds"), ("sample.float.ten", "sample.longlong.ten"),
             ("sample.double.million", "sample.ulonglong.million"), ("hinv.ncpu", "sample.negative.instant.m_32"),
             ("disk.dev.read", "disk.all.read"), ("sample.string.hullo", "sample.drift"),
             ("sample.drift", "sample.lights"), ("kernel.all.load", "hinv.ncpu")]
    for (a, b), op in itertools.product(pairs, OPS):
        cases.append("%s %s %s" % (a, op, b))
    consts = ["sample.drift + 1", "2 * sample.long.million", "sample.seconds * 1000",
              "1 / 3", "1.5 + 2", "10 - 20", "7 * 6 - 2", "0 / 0", "1 / 0", "-5 + 2",
              "4294967295 + 1", "mkconst(10, type=64) * sample.longlong.ten",
              "mkconst(1024, units=Kbyte) + mem.util.used", "mkconst(3.5, type=float)",
              "mkconst(7, type=u64, semantics=counter)", "mkconst(2, units=\"count/sec\")",
              "sample.drift > 0 ? sample.drift : -sample.drift",
              "sample.colour > 100 ? sample.colour : 0",
              "hinv.ncpu > 1 ? mem.util.used : mem.util.free",
              "sample.drift ? sample.colour : sample.bin",
              "sample.drift ? 1 : 2.5",
              "defined(sample.seconds) ? sample.seconds : 0",
              "defined(no.such.metric) ? 1 : 0",
              "defined(no.such.metric)", "!defined(sample.drift)",
              "sample.colour[red]", "sample.colour[green] + sample.colour[blue]",
              "sample.bin[bin-100]", "sample.colour[nosuch]",
              "matchinst(/^r/, sample.colour)", "matchinst(!/^r/, sample.colour)",
              "matchinst(/bin-[1-3]00/, sample.bin)", "matchinst(/./, disk.dev.read)",
              "sum(matchinst(/bin-[1-5]/, sample.bin))", "count(matchinst(/zzz/, sample.bin))",
              "(sample.colour)[r.*]", "rescale(mem.util.used, \"Mbyte\")",
              "rescale(sample.milliseconds, \"sec\")", "rescale(sample.seconds, \"hour\")",
              "rescale(mem.util.used, \"sec\")", "rescale(sample.drift, \"count\")",
              "rescale(disk.all.write_bytes, \"byte\")", "rescale(sample.string.hullo, \"byte\")",
              "scalar(sample.colour)", "scalar(sample.drift)", "scalar(disk.dev.read) + 1",
              "rate(sample.seconds) * 100", "100 * rate(kernel.all.cpu.user) / hinv.ncpu",
              "rate(kernel.percpu.cpu.user)", "delta(disk.dev.read)", "rate(disk.dev.read)",
              "rate(sample.ulong.bin_ctr)", "delta(sample.byte_ctr)",
              "delta(sample.ulong.bin_ctr) / rate(sample.ulong.bin_ctr)",
              "instant(disk.all.read) - instant(disk.all.read)",
              "avg(sample.bin) + min(sample.bin) + max(sample.bin)",
              "sum(sample.colour) / count(sample.colour)",
              "max(kernel.all.load) - min(kernel.all.load)",
              "avg(kernel.percpu.cpu.user)", "sum(network.interface.in.bytes)",
              "count(no.such.metric)", "no.such.metric", "sample.drift + no.such.metric",
              "sample", "sample.long", "event.flags", "event.flags + 1", "anon(PM_TYPE_U64)",
              "anon(PM_TYPE_DOUBLE)", "anon(PM_TYPE_FLOAT) + 1",
              "disk.dev.read + network.interface.in.bytes", "sample.colour * sample.bin",
              "kernel.all.pswitch / sample.seconds", "sample.seconds / sample.step",
              "sample.step / sample.seconds", "mem.util.used / mem.physmem",
              "disk.all.write_bytes + disk.all.read", "(mem.util.used + mem.util.free) * 1024",
              "kernel.all.cpu.user + sample.milliseconds", "sample.milliseconds - sample.seconds",
              "sample.seconds - kernel.all.cpu.user", "hinv.physmem - mem.util.used",
              "swap.used + mem.util.used", "mem.util.used + swap.used",
              "sample.mirage * sample.drift", "sample.mirage + 1",
              "rate(sample.mirage)", "rate(swap.used)", "rate(mem.util.used) * 1",
              "-(sample.drift * 2)", "- - sample.drift", "!!sample.drift", "!(sample.drift > 3)",
              "sample.drift < 100 && sample.drift > -100", "sample.drift == sample.drift",
              "1 < 2", "2.5 >= 2.5", "1 && 0", "0 || 3", "!0", "-1", "-(3.5)",
              "sample.drift - -1", "sample.long.million * sample.long.million",
              "sample.ulong.hundred - 200", "sample.longlong.ten - 20",
              "sample.ulonglong.million * 1000000000000", "sample.float.ten / 3",
              "sample.negative.instant.m_32 * -1", "kernel.all.load > 1",
              "kernel.all.load[1 minute]", "kernel.all.load[15 minute] * 100",
              "matchinst(/^1 /, kernel.all.load)", "disk.dev.read[sda]",
              "delta(sample.seconds) + 0", "rate(sample.milliseconds)",
              "rate(sample.seconds) + rate(sample.milliseconds)",
              "delta(disk.all.read) > 0 ? delta(disk.all.read) : 0",
              "sample.seconds > 0", "sample.seconds > sample.milliseconds",
              "pmcd.numclients", "pmcd.pmlogger.port + 1", "pmcd.pid * 2"]
    cases += consts
    out += cases
    out.append("@ %s back:3" % SMALL)
    out += consts[:60]
    out.append("@ %s interp:1.5:4" % SMALL)
    out += consts
    out.append("@ qa/wrap/wrap forw:5")
    out += ["sample.wrap.long", "rate(sample.wrap.long)", "delta(sample.wrap.long)",
            "sample.wrap.long + 1", "instant(sample.wrap.long)"]
    out.append("@ qa/ok-mv-foo/ok-mv-foo forw:4")
    out += ["sample.colour", "sum(sample.colour)", "rate(sample.seconds)",
            "sample.colour + sample.bin", "matchinst(/e/, sample.colour)",
            "count(sample.bin)", "avg(sample.bin)", "sample.drift * 2"]
    out.append("@ reference/multiarchive/seg1 forw:3")
    out += ["sample.seconds + 1", "rate(sample.seconds)", "no.such"]
    out.append("@ %s forw:3" % SMALL)
    out += random_cases(350)
    out.append("@ %s forw:1" % SMALL)
    out += random_syntax(600)
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "derive_cases.txt"), "w") as f:
        f.write("\n".join(out) + "\n")


main()
