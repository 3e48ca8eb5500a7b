"""Replays an archive through pcp.pmcc's MetricGroupManager, as PCP's own
pmcc-based tools do, printing each group's values. Its output is compared
between PCP's libpcp.so.3 and libpmapi's.

    python3 pmcc_archive.py ARCHIVE
"""
import sys
from pcp import pmapi, pmcc
import cpmapi as c_api

METRICS = ["kernel.all.load", "mem.util.free", "mem.util.used",
           "kernel.all.cpu.user", "kernel.all.cpu.sys", "disk.dev.read"]


class Printer(pmcc.MetricGroupPrinter):
    """Prints every metric of the group: its instances and values."""

    def __init__(self):
        self.samples = 0

    def report(self, manager):
        group = manager["all"]
        self.samples += 1
        print("sample", self.samples, group.timestamp)
        for metric in sorted(group, key=lambda m: m.name):
            values = metric.netValues
            print("  %s %s %s" % (metric.name, metric.ctx.pmUnitsStr(metric.desc.contents.units),
                                  [(inst, name, round(value, 3)) for inst, name, value in values]))
        if self.samples >= 5:
            raise SystemExit(0)


def main():
    manager = pmcc.MetricGroupManager(c_api.PM_CONTEXT_ARCHIVE, sys.argv[1])
    manager["all"] = [m for m in METRICS if m_exists(manager, m)]
    manager.printer = Printer()
    manager.type = c_api.PM_CONTEXT_ARCHIVE
    manager.pmSetMode(c_api.PM_MODE_INTERP, manager._origin if hasattr(manager, "_origin") else
                      manager.pmGetArchiveLabel().start, 2000)
    try:
        manager.run()
    except pmapi.pmErr as error:
        print("run:", error.message())


def m_exists(context, name):
    try:
        context.pmLookupName(name)
        return True
    except pmapi.pmErr:
        return False


main()
