"""Replays an archive through pcp.pmcc's MetricGroupManager, as PCP's own
pmcc-based tools do (options, groups, a printer, rate conversion), printing
each group's values. Its output is compared between PCP's libpcp.so.3 and
libpmapi's.

    python3 pmcc_archive.py -a ARCHIVE [-t INTERVAL] [-s SAMPLES]
"""
import sys
from pcp import pmapi, pmcc

GROUPS = {
    "load": ["kernel.all.load"],
    "memory": ["mem.util.free", "mem.util.used"],
    "cpu": ["kernel.all.cpu.user", "kernel.all.cpu.sys"],
}


class Printer(pmcc.MetricGroupPrinter):
    """Prints every metric of every group: instances and values."""

    def report(self, manager):
        for name in sorted(GROUPS):
            group = manager[name]
            print(name, group.timestamp)
            for mname in sorted(group):
                metric = group[mname]
                values = [(iname, round(value, 3)) for _, iname, value in metric.netValues]
                print("  %s %s %s" % (metric.name, metric.ctx.pmUnitsStr(metric.desc.contents.units),
                                      values))


def main():
    opts = pmapi.pmOptions("a:t:s:")
    opts.pmSetLongOptionArchive()
    opts.pmSetLongOptionInterval()
    opts.pmSetLongOptionSamples()
    manager = pmcc.MetricGroupManager.builder(opts, sys.argv)
    missing = manager.checkMissingMetrics([m for ms in GROUPS.values() for m in ms])
    print("missing:", missing)
    for name, metrics in GROUPS.items():
        manager[name] = [m for m in metrics if not missing or m not in missing]
    manager.printer = Printer()
    sys.exit(manager.run())


main()
