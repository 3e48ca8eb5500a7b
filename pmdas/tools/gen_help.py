#!/usr/bin/env python3
"""Writes the help text of the built-in linux and proc agents
(pmdas/linux/help, pmdas/proc/help) in the source form newhelp reads.

The words are this project's own: a one-line summary per metric made from
the phrases below (by family and leaf name), and a longer note per family
saying where the value comes from. Run after gen_tables.py:

  pmdas/tools/gen_help.py [REPO]
"""
import os
import re
import sys

REPO = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")

CPU = {
    "user": "in user mode", "nice": "in user mode at low priority", "sys": "in the kernel",
    "idle": "idle", "intr": "servicing hard and soft interrupts", "wait.total": "idle with I/O outstanding",
    "irq.soft": "in soft interrupt handlers", "irq.hard": "in hard interrupt handlers",
    "steal": "taken away by the hypervisor", "guest": "running guest systems",
    "vuser": "in user mode, guest time left out", "guest_nice": "running low priority guests",
    "vnice": "in low priority user mode, guest time left out",
}
DISK = {
    "read": "read requests completed", "write": "write requests completed",
    "total": "read and write requests completed", "blkread": "512-byte blocks read",
    "blkwrite": "512-byte blocks written", "blktotal": "512-byte blocks read and written",
    "read_bytes": "kilobytes read", "write_bytes": "kilobytes written",
    "total_bytes": "kilobytes read and written", "read_merge": "adjacent read requests merged",
    "write_merge": "adjacent write requests merged", "avactive": "time with at least one request in flight",
    "aveq": "time spent by all requests, weighted by queue length",
    "read_rawactive": "time spent on read requests", "write_rawactive": "time spent on write requests",
    "total_rawactive": "time spent on read and write requests", "scheduler": "I/O scheduler in use",
    "capacity": "size", "discard": "discard requests completed", "blkdiscard": "512-byte blocks discarded",
    "discard_bytes": "kilobytes discarded", "discard_merge": "adjacent discard requests merged",
    "discard_rawactive": "time spent on discard requests", "flush": "flush requests completed",
    "flush_rawactive": "time spent on flush requests", "inflight": "requests in flight now",
}
NETIF = {
    "in.bytes": "bytes received", "in.packets": "packets received", "in.errors": "receive errors",
    "in.drops": "received packets dropped", "in.fifo": "receive FIFO overruns",
    "in.frame": "receive framing errors", "in.compressed": "compressed packets received",
    "in.mcasts": "multicast packets received", "out.bytes": "bytes sent", "out.packets": "packets sent",
    "out.errors": "send errors", "out.drops": "outgoing packets dropped", "out.fifo": "send FIFO overruns",
    "collisions": "collisions seen", "out.carrier": "carrier losses when sending",
    "out.compressed": "compressed packets sent", "total.bytes": "bytes sent and received",
    "total.packets": "packets sent and received", "total.errors": "send and receive errors",
    "total.drops": "packets dropped either way", "total.mcasts": "multicast packets received",
    "mtu": "largest packet size (MTU)", "speed": "line speed in megabytes per second",
    "baudrate": "line speed in bytes per second", "duplex": "duplex mode (1 half, 2 full)",
    "up": "1 when administratively up", "running": "1 when the link is running",
    "wireless": "1 for a wireless interface", "type": "interface kind as the kernel reports it",
    "virtual": "1 for a virtual (software) interface",
}
PROTO = {
    "ip": "IPv4", "ip6": "IPv6", "icmp": "ICMP", "icmp6": "ICMPv6", "tcp": "TCP", "udp": "UDP",
    "udplite": "UDP-Lite", "udp6": "UDP over IPv6", "udplite6": "UDP-Lite over IPv6",
    "mptcp": "Multipath TCP", "icmpmsg": "ICMP message type",
}
PROTO_SOURCE = {
    "ip6": "/proc/net/snmp6", "icmp6": "/proc/net/snmp6", "udp6": "/proc/net/snmp6",
    "udplite6": "/proc/net/snmp6", "mptcp": "/proc/net/netstat (MPTcpExt)",
}
MEMINFO_NOTE = {
    "used": "Memory in use: total less free (caches and buffers count as used)",
    "free": "Memory not used for anything", "shared": "Shared memory (always zero on current kernels)",
    "bufmem": "Memory holding block device buffers", "cached": "Memory holding the page cache",
    "other": "Memory in use for anything but the page cache and buffers",
    "available": "Estimate of memory available for new work without swapping",
    "cache_clean": "Page cache that is neither dirty nor under writeback",
}
PROC = {
    "pid": "process id", "cmd": "command name", "sname": "one-letter state", "ppid": "parent process id",
    "pgrp": "process group id", "session": "session id", "tty": "controlling terminal device number",
    "tty_pgrp": "foreground process group of its terminal", "flags": "kernel flags word",
    "minflt": "minor page faults", "cmin_flt": "minor page faults of waited-for children",
    "maj_flt": "major page faults", "cmaj_flt": "major page faults of waited-for children",
    "utime": "time spent in user mode", "stime": "time spent in the kernel",
    "cutime": "user time of waited-for children", "cstime": "kernel time of waited-for children",
    "priority": "scheduling priority", "nice": "nice value", "it_real_value": "obsolete timer field",
    "start_time": "time it started, after boot", "vsize": "virtual memory size",
    "rss": "resident set size", "rss_rlim": "resident set size limit",
    "start_code": "start address of its code", "end_code": "end address of its code",
    "start_stack": "start address of its stack", "esp": "stack pointer", "eip": "instruction pointer",
    "signal": "pending signals mask", "blocked": "blocked signals mask", "sigignore": "ignored signals mask",
    "sigcatch": "caught signals mask", "wchan": "kernel address it waits at", "nswap": "pages swapped (unused)",
    "cnswap": "pages swapped by children (unused)", "exit_signal": "signal sent to the parent at exit",
    "processor": "processor it last ran on", "psargs": "full command line",
    "rt_priority": "real-time priority", "policy": "scheduling policy number",
    "delayacct_blkio_time": "time waiting for block I/O", "guest_time": "time running a guest",
    "cguest_time": "guest time of waited-for children", "threads": "number of threads",
    "vctxsw": "voluntary context switches", "nvctxsw": "involuntary context switches",
    "ngid": "NUMA group id", "tgid": "thread group id", "signal_s": "pending signals, as hex text",
    "blocked_s": "blocked signals, as hex text", "sigignore_s": "ignored signals, as hex text",
    "sigcatch_s": "caught signals, as hex text", "oom_score": "out-of-memory killer score",
    "exe": "path of its executable", "cwd": "its current directory",
    "cgroups": "control groups, as ps shows them", "wchan_s": "kernel function it waits in",
    "policy_s": "scheduling policy name", "cpusallowed": "processors it may run on",
    "labels": "security label (such as an SELinux context)", "ttyname": "controlling terminal name",
    "environ": "environment, entries separated by blanks",
}
PSINFO_NOTE = {
    "labels": "From /proc/PID/attr/current, read until it has been read once; no value\nwhere the system has no security module giving labels.",
    "ttyname": "The terminal named by the tty_nr field of /proc/PID/stat, looked up in\n/proc/tty/drivers, then among the devices of /dev/pts and /dev; \"?\" for\nnone.",
    "environ": "From /proc/PID/environ; empty where it cannot be read.",
}
PROC_OTHER = {
    "runq": ("Processes counted by state: {}", "From /proc/PID/stat of every process; processes without memory\n(kernel threads) count as swapped, and the kernel count stays zero, as in PCP's agent."),
    "control": ("Agent control: {}", "This agent lists processes only (no threads) and filters no control\ngroups, so these are 0, 0 and empty."),
    "smaps": ("Process memory map total: {}", "From /proc/PID/smaps_rollup, in kilobytes."),
    "schedstat": ("Process scheduler statistic: {}", "From /proc/PID/schedstat."),
    "fd": ("Process open file descriptors", "Entries of /proc/PID/fd."),
    "autogroup": ("Process scheduler autogroup: {}", "From /proc/PID/autogroup and /proc/sys/kernel/sched_autogroup_enabled."),
    "namespaces": ("Process {} in each nested PID namespace", "From the NS lines of /proc/PID/status, comma separated."),
}
PROC_MEM = {
    "size": "total program size", "rss": "resident pages", "share": "shared resident pages",
    "textrss": "resident code", "librss": "resident library pages (unused by the kernel)",
    "datrss": "data and stack", "dirty": "dirty pages (unused by the kernel)",
    "vmsize": "virtual size", "vmlock": "locked memory", "vmrss": "resident memory",
    "vmdata": "data segment", "vmstack": "stack", "vmexe": "code", "vmlib": "shared library code",
    "vmswap": "swapped-out memory", "vmpeak": "peak virtual size", "vmpin": "pinned memory",
    "vmhwm": "peak resident memory", "vmpte": "page table entries", "vmreal": "resident plus swapped",
    "vmnonlib": "resident plus swapped, less library code",
}
PROC_IO = {
    "rchar": "bytes read through read-like calls", "wchar": "bytes written through write-like calls",
    "syscr": "read-like system calls", "syscw": "write-like system calls",
    "read_bytes": "bytes fetched from storage", "write_bytes": "bytes sent to storage",
    "cancelled_write_bytes": "bytes whose writeback was cancelled",
}
OTHER = {
    "kernel.all.load": "1, 5 and 15 minute load average",
    "kernel.all.intr": "Interrupts since boot", "kernel.all.pswitch": "Context switches since boot",
    "kernel.all.sysfork": "Processes created since boot", "kernel.all.running": "Processes able to run now",
    "kernel.all.blocked": "Processes blocked on I/O now", "kernel.all.boottime": "Boot time, seconds since the epoch",
    "kernel.all.hz": "Clock ticks per second of the kernel's accounting",
    "kernel.all.uptime": "Seconds since boot", "kernel.all.idletime": "Seconds all processors spent idle since boot",
    "kernel.all.lastpid": "Most recently created process id", "kernel.all.runnable": "Runnable processes and threads",
    "kernel.all.nprocs": "Number of processes and threads that exist",
    "kernel.all.interrupts.total": "Interrupts from each source, over all processors",
    "kernel.all.interrupts.missed": "Interrupts the kernel missed (the MIS line)",
    "kernel.all.interrupts.errors": "Spurious or erroneous interrupts (the ERR line)",
    "kernel.percpu.interrupts": "Interrupts from each source on each processor",
    "kernel.percpu.intr": "Interrupts on each processor, over all sources",
    "kernel.all.softirqs.total": "Soft interrupts of each kind, over all processors",
    "kernel.percpu.softirqs": "Soft interrupts of each kind on each processor",
    "kernel.percpu.sirq": "Soft interrupts on each processor, over all kinds",
    "kernel.all.nusers": "Logged-in user sessions", "kernel.all.nroots": "Logged-in sessions of root",
    "kernel.all.nsessions": "Login records of every kind",
    "kernel.all.entropy.avail": "Bits of entropy in the kernel's pool",
    "kernel.all.entropy.poolsize": "Size of the kernel's entropy pool in bits",
    "kernel.all.pid_max": "Largest process id before wrapping", "kernel.all.nptys": "Pseudo-terminals in use",
    "kernel.uname.release": "Release of the running kernel", "kernel.uname.version": "Build version string of the running kernel",
    "kernel.uname.sysname": "Name of the operating system", "kernel.uname.machine": "Hardware type of the machine",
    "kernel.uname.nodename": "Network node name of the host", "kernel.uname.distro": "Name and release of the Linux distribution",
    "hinv.physmem": "Total usable memory in megabytes", "hinv.pagesize": "Memory page size",
    "hinv.ncpu": "Number of processors", "hinv.ndisk": "Number of whole disks",
    "hinv.nfilesys": "Number of block device file systems mounted", "hinv.ninterface": "Number of network interfaces",
    "hinv.nnode": "Number of NUMA nodes", "hinv.machine": "Machine hardware name",
    "hinv.node.online": "1 when the NUMA node is online", "hinv.hugepagesize": "Default huge page size",
    "hinv.ntape": "Number of tape devices",
    "hinv.map.cpu_num": "Number of each processor", "hinv.map.cpu_node": "NUMA node of each processor",
    "hinv.map.dmname": "Kernel name (dm-N) of each device-mapper device",
    "hinv.map.mdname": "Kernel name (mdN) of each md device",
    "hinv.map.scsi": "Block device of each SCSI device",
    "hinv.map.scsi_id": "World-wide identifier (WWID) of each disk", "hinv.nfchost": "Number of fibre channel hosts",
    "hinv.cpu.clock": "Clock rate of each processor in MHz", "hinv.cpu.vendor": "Maker of each processor",
    "hinv.cpu.model": "Model number of each processor", "hinv.cpu.stepping": "Stepping (revision) of each processor",
    "hinv.cpu.cache": "Cache size of each processor", "hinv.cpu.bogomips": "The kernel's BogoMIPS rating of each processor",
    "hinv.cpu.model_name": "Marketing name of each processor", "hinv.cpu.flags": "Feature flags of each processor",
    "hinv.cpu.cache_alignment": "Cache line alignment of each processor",
    "hinv.cpu.online": "1 when the processor is online",
    "hinv.cpu.thermal_throttle.core.count": "Times the core of each processor was slowed for heat",
    "hinv.cpu.thermal_throttle.core.time": "Time the core of each processor spent slowed for heat",
    "hinv.cpu.thermal_throttle.package.count": "Times the package of each processor was slowed for heat",
    "hinv.cpu.thermal_throttle.package.time": "Time the package of each processor spent slowed for heat",
    "hinv.cpu.frequency_scaling.count": "Sum over frequencies of MHz times the intervals spent at each",
    "hinv.cpu.frequency_scaling.time": "Intervals each processor has spent at any scaled frequency",
    "hinv.cpu.frequency_scaling.max": "Highest frequency each processor can be scaled to, in MHz",
    "hinv.cpu.frequency_scaling.min": "Lowest frequency each processor can be scaled to, in MHz",
    "mem.physmem": "Total usable memory", "mem.freemem": "Free memory",
    "swap.pagesin": "Pages read in from swap since boot", "swap.pagesout": "Pages written to swap since boot",
    "swap.in": "Swap-in operations since boot (old kernels only)", "swap.out": "Swap-out operations since boot (old kernels only)",
    "swap.length": "Total swap space", "swap.used": "Swap space in use", "swap.free": "Swap space not in use",
    "filesys.capacity": "Size of each file system", "filesys.used": "Space in use on each file system",
    "filesys.free": "Space free on each file system", "filesys.maxfiles": "Inodes each file system can hold",
    "filesys.usedfiles": "Inodes in use on each file system", "filesys.freefiles": "Inodes free on each file system",
    "filesys.mountdir": "Where each file system is mounted", "filesys.full": "Percentage of each file system in use",
    "filesys.blocksize": "Block size of each file system", "filesys.avail": "Space free to ordinary users on each file system",
    "filesys.readonly": "1 when the file system is mounted read-only",
    "proc.nprocs": "Number of processes",
    "disk.md.status": "Health of each md array, as mdadm --detail --test reports it",
    "vfs.files.count": "File handles allocated", "vfs.files.free": "File handles allocated but unused",
    "vfs.files.max": "Most file handles the kernel will allocate",
    "vfs.inodes.count": "Inodes the kernel has allocated", "vfs.inodes.free": "Allocated inodes not in use",
    "vfs.dentry.count": "Directory cache entries allocated", "vfs.dentry.free": "Directory cache entries not in use",
    "vfs.aio.count": "Asynchronous I/O requests in flight, over all contexts",
    "vfs.aio.max": "Most asynchronous I/O requests the kernel allows in flight",
    "vfs.locks.posix.read": "POSIX record locks with read access",
    "vfs.locks.posix.write": "POSIX record locks with write access",
    "vfs.locks.posix.count": "POSIX record locks held",
    "vfs.locks.flock.read": "flock(2) locks with read access",
    "vfs.locks.flock.write": "flock(2) locks with write access",
    "vfs.locks.flock.count": "flock(2) locks held",
    "vfs.locks.lease.read": "File leases and delegations with read access",
    "vfs.locks.lease.write": "File leases and delegations with write access",
    "vfs.locks.lease.count": "File leases and delegations held",
    "network.all.in.bytes": "Bytes received on all physical interfaces",
}


SOURCES = [
    ("kernel.all.load", "The kernel's exponentially damped run queue length averages, from /proc/loadavg."),
    ("kernel.all.lastpid", "From /proc/loadavg."), ("kernel.all.runnable", "From /proc/loadavg."),
    ("kernel.all.nprocs", "From /proc/loadavg."),
    ("kernel.all.interrupts.", "From /proc/interrupts; instances are the sources of its lines."),
    ("kernel.percpu.interrupts", "From /proc/interrupts; instances are SOURCE::cpuN."),
    ("kernel.percpu.intr", "From /proc/interrupts."),
    ("kernel.all.softirqs.", "From /proc/softirqs; instances are the kinds of its lines."),
    ("kernel.percpu.softirqs", "From /proc/softirqs; instances are KIND::cpuN."),
    ("kernel.percpu.sirq", "From /proc/softirqs."),
    ("kernel.all.nusers", "USER_PROCESS records of utmp(5) with a user name."),
    ("kernel.all.nroots", "USER_PROCESS records of utmp(5) for the user root."),
    ("kernel.all.nsessions", "Every record of utmp(5) but user records without a user name."),
    ("kernel.all.uptime", "From /proc/uptime."), ("kernel.all.idletime", "From /proc/uptime."),
    ("kernel.all.entropy", "From /proc/sys/kernel/random."), ("kernel.all.pid_max", "From /proc/sys/kernel/pid_max."),
    ("kernel.all.nptys", "From /proc/sys/kernel/pty/nr."), ("kernel.all.hz", "The kernel's USER_HZ, from sysconf(3)."),
    ("kernel.all.", "From /proc/stat."), ("kernel.uname.distro", "From the release files in /etc."),
    ("kernel.uname.", "From uname(2)."), ("hinv.node.", "From /sys/devices/system/node."),
    ("hinv.nnode", "From /sys/devices/system/node."), ("hinv.ncpu", "From /proc/stat."),
    ("hinv.ndisk", "From /proc/diskstats."), ("hinv.nfilesys", "From /proc/mounts."),
    ("hinv.ninterface", "From /proc/net/dev."), ("hinv.machine", "From uname(2)."),
    ("hinv.ntape", "Drives stN of /sys/class/scsi_tape with a stats directory."),
    ("hinv.nfchost", "Hosts of /sys/class/fc_host with a statistics directory."),
    ("hinv.map.cpu", "From /proc/stat and /sys/devices/system/node."),
    ("hinv.map.scsi_id", "From /sys/block/DEV/device/wwid (or /sys/block/DEV/wwid); the t10., eui.\nand naa. prefixes become 1, 2 and 3; \"unknown\" when there is none."),
    ("hinv.map.scsi", "Devices of /proc/scsi/scsi; the block device is the entry below\n/sys/class/scsi_device/H:C:I:L/device/block."),
    ("hinv.cpu.clock", "The \"cpu MHz\" line of /proc/cpuinfo, else the scaling driver's current\nfrequency from /sys/devices/system/cpu/cpuN/cpufreq."),
    ("hinv.cpu.online", "From /sys/devices/system/cpu/cpuN/online (1 when the file is absent)."),
    ("hinv.cpu.thermal_throttle.", "From /sys/devices/system/cpu/cpuN/thermal_throttle (0 when absent)."),
    ("hinv.cpu.frequency_scaling.", "From cpufreq/stats/time_in_state below /sys/devices/system/cpu/cpuN, else\nfrom the cpuinfo_max_freq, cpuinfo_min_freq and scaling_cur_freq files there\n(then the count is the current frequency and the time has no value)."),
    ("hinv.cpu.", "From /proc/cpuinfo; \"unknown\" for a string the file lacks."),
    ("hinv.map.", "Device-mapper names from /sys/block/dm-N/dm/name or /dev/mapper; md names\nfrom the links in /dev/md."),
    ("hinv.", "From /proc/meminfo or sysconf(3)."), ("mem.", "From /proc/meminfo."),
    ("swap.pages", "From /proc/vmstat."), ("swap.in", "From the swap line of /proc/stat, which current kernels lack."),
    ("swap.out", "From the swap line of /proc/stat, which current kernels lack."), ("swap.", "From /proc/meminfo."),
    ("filesys.", "Block device file systems of /proc/mounts, sizes from statfs(2)."),
    ("network.all.", "Loopback, bonding and teaming interfaces are left out."),
    ("proc.nprocs", "Processes listed in /proc."),
    ("disk.md.status", "The wait status of \"mdadm --detail --test /dev/mdN\": 0 for a healthy array,\nnon-zero for a degraded, failed or unreadable one (see mdadm(8)); -1 when\nthe program cannot be read. $LINUX_MDADM names another program."),
    ("vfs.files.", "From /proc/sys/fs/file-nr."), ("vfs.inodes.", "From /proc/sys/fs/inode-state."),
    ("vfs.dentry.", "From /proc/sys/fs/dentry-state."),
    ("vfs.aio.", "From /proc/sys/fs/aio-nr and aio-max-nr."),
    ("vfs.locks.posix.", "From /proc/locks: POSIX, ACCESS and OFDLCK lines; a lock with RW access\ncounts as both read and write."),
    ("vfs.locks.", "From /proc/locks; a lock with RW access counts as both read and write."),
]


def camel_words(s):
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", s).replace("_", " ")


CGROUP_FILES = {
    "cpuset": "cpuset.cpus and cpuset.mems", "cpuacct": "cpuacct.stat, cpuacct.usage and cpuacct.usage_percpu",
    "cpusched": "cpu.shares, cpu.stat, cpu.cfs_period_us and cpu.cfs_quota_us", "memory": "memory.stat and\nthe memory.* one-value files",
    "netclass": "net_cls.classid", "blkio": "the blkio.* files (per device by major:minor, named\nfrom /proc/diskstats)",
}
BLKIO = {
    "io_merged": "requests merged", "io_queued": "requests queued", "io_service_bytes": "bytes transferred",
    "io_serviced": "requests completed", "io_service_time": "time spent servicing requests",
    "io_wait_time": "time requests spent waiting", "sectors": "kilobytes transferred", "time": "disk time used",
}


def cgroup_line(name):
    """One-line text and note of a cgroup metric, in this project's words."""
    p = name.split(".")
    leaf = p[-1]
    if p[1] == "subsys":
        what = {"hierarchy": "hierarchy id", "count": "number of subsystems", "num_cgroups": "number of groups",
                "enabled": "whether enabled (1) or not (0)"}[leaf]
        return f"Control group subsystem: {what}", "From /proc/cgroups."
    if p[1] == "mounts":
        what = {"subsys": "the subsystems it carries (? for none known)", "count": "number of mounts"}[leaf]
        return f"Control group mount: {what}", "The cgroup and cgroup2 mounts of /proc/mounts."
    if leaf == "container":
        return f"Container id of each {p[1]} group", "The Docker or Podman container id found in the group's path; empty\nwhen there is none."
    if p[1] == "pressure":
        what = {"avg10sec": "stall share over 10 seconds", "avg1min": "stall share over 1 minute",
                "avg5min": "stall share over 5 minutes", "total": "total time stalled"}[leaf]
        res = {"cpu": "CPU", "io": "I/O", "memory": "Memory", "irq": "Interrupt"}[p[2]]
        who = {"some": "some tasks", "full": "all non-idle tasks"}[p[3]]
        return f"{res} pressure of each group, {who}: {what}", f"From the group's {p[2]}.pressure file (control groups version 2)."
    if p[1] == "cpu":
        return f"Processor time of each group: {leaf}", "From the group's cpu.stat file (control groups version 2), in\nmicroseconds."
    if p[1] == "io":
        what = {"rbytes": "bytes read", "wbytes": "bytes written", "rios": "reads", "wios": "writes",
                "dbytes": "bytes discarded", "dios": "discards"}[leaf]
        return f"I/O of each group and device: {what}", "From the group's io.stat file (control groups version 2), devices\nnamed from /proc/diskstats."
    if p[1] == "blkio":
        scope = "each group and device" if p[2] == "dev" else "each group, all devices"
        kind = p[-2] if leaf in ("read", "write", "sync", "async", "total") else leaf
        what = BLKIO[kind] + ("" if kind == leaf else f" ({leaf})")
        if p[3] == "throttle":
            what = "throttled: " + what
        return f"Block I/O of {scope}: {what}", f"From {CGROUP_FILES['blkio']}."
    words = " ".join(p[2:]).replace("_", " ")
    return f"Control group {p[1]} statistic of each group: {words}", f"From {CGROUP_FILES[p[1]]}."


def one_line(name, sem, units):
    if name.startswith("cgroup."):
        return cgroup_line(name)
    if name in OTHER:
        return OTHER[name], next(note for prefix, note in SOURCES if name.startswith(prefix))
    p = name.split(".")
    leaf = p[-1]
    if p[0] == "tape":
        what = {"in_flight": "Requests now outstanding on", "io_ns": "Time spent waiting for requests of every kind on",
                "other_cnt": "Requests other than reads and writes issued to", "read_byte_cnt": "Bytes read from",
                "read_cnt": "Read requests issued to", "read_ns": "Time spent waiting for reads on",
                "resid_cnt": "Reads and writes that moved less than asked on", "write_byte_cnt": "Bytes written to",
                "write_cnt": "Write requests issued to", "write_ns": "Time spent waiting for writes on"}[leaf]
        return f"{what} each tape drive", f"From /sys/class/scsi_tape/stN/stats/{leaf}."
    if p[0] == "fchost":
        key = ".".join(p[1:])
        what, source = {"in.frames": ("Frames received by", "rx_frames"),
                        "out.frames": ("Frames sent by", "rx_words"),
                        "in.bytes": ("Bytes received by", "tx_frames"),
                        "out.bytes": ("Bytes sent by", "tx_words"),
                        "lip_count": ("Loop initialization primitives (LIP) seen by", "lip_count"),
                        "nos_count": ("Not-operational sequences (NOS) seen by", "nos_count"),
                        "error_frames": ("Frames received in error by", "error_frames"),
                        "dumped_frames": ("Frames dropped for want of buffers by", "dumped_frames")}[key]
        note = f"From /sys/class/fc_host/hostN/statistics/{source}"
        note += " (words, times four)." if source.endswith("_words") else "."
        if key in ("out.frames", "in.bytes"):
            note += "\nAs in PCP's agent, this metric carries that file's value rather\nthan what its name says."
        return f"{what} each Fibre Channel host", note
    if p[0] == "tty":
        what = {"tx": "characters sent", "rx": "characters received", "frame": "framing errors",
                "parity": "parity errors", "brk": "breaks received", "overrun": "overrun errors",
                "irq": "interrupt line"}[leaf]
        return f"Serial port {what}", "From /proc/tty/driver/serial; values for the super-user only, as in PCP."
    if name.startswith(("kernel.all.cpu.", "kernel.percpu.cpu.", "kernel.pernode.cpu.")):
        key = ".".join(p[3:])
        who = {"all": "all processors", "percpu": "each processor", "pernode": "the processors of each node"}[p[1]]
        return f"Time {who} spent {CPU[key]}", "Milliseconds, from /proc/stat (clock ticks converted)."
    if name == "disk.wwid.scsi_paths":
        return "Disks that are paths to each WWID", "Names of the disks whose hinv.map.scsi_id is the instance, joined by spaces."
    if p[0] == "disk" and p[1] == "wwid":
        return (f"{DISK[leaf][0].upper()}{DISK[leaf][1:]}, each WWID over its paths",
                "Sums over the disks whose hinv.map.scsi_id is the instance (the scheduler\n"
                "is the last path's); from /proc/diskstats, as for disk.dev.")
    if p[0] == "disk":
        scope = {"dev": "each disk", "all": "all disks together", "partitions": "each partition",
                 "dm": "each device-mapper device", "md": "each md (software RAID) device"}[p[1]]
        return f"{DISK[leaf][0].upper()}{DISK[leaf][1:]}, {scope}", "From /proc/diskstats (sizes from /proc/partitions)."
    if p[0] == "zram" and len(p) == 2:
        if leaf == "capacity":
            return "Size of each compressed RAM (zram) device", "From /sys/block/zramN/disksize, in kilobytes."
        return f"{DISK[leaf][0].upper()}{DISK[leaf][1:]}, each zram device", "From /proc/diskstats, as for disk partitions."
    if p[0] == "zram":
        what = {"failed.reads": "failed reads", "failed.writes": "failed writes",
                "invalid": "requests refused as invalid (not aligned)", "notify_free": "freed-block notices",
                "data_size.original": "data stored, before compression",
                "data_size.compressed": "data stored, after compression",
                "mem.used_total": "memory taken, allocator overhead included",
                "mem.limit": "most memory the device may take", "mem.max_used": "most memory the device has taken",
                "pages.same": "pages holding one value repeated, kept without memory",
                "pages.compacted": "memory freed by compaction", "pages.huge": "pages stored uncompressed",
                "count": "data written to the backing device", "reads": "data read back from the backing device",
                "writes": "data written out to the backing device"}[".".join(p[2:])]
        source = {"io_stat": "Counted", "mm_stat": "Kilobytes", "bd_stat": "Kilobytes"}[p[1]]
        return f"zram device {what}", f"{source}, from /sys/block/zramN/{p[1]}; no value without all its fields."
    if p[0] in ("nfs", "nfs3", "nfs4"):
        side = {"client": "this host's NFS client", "server": "this host's NFS server"}[p[1]]
        version = {"nfs": "NFS version 2", "nfs3": "NFS version 3", "nfs4": "NFS version 4"}[p[0]]
        source = "/proc/net/rpc/nfs" if p[1] == "client" else "/proc/net/rpc/nfsd"
        if leaf == "calls":
            return f"{version} requests of {side}, all operations", f"Sum of the {version} operation counts in {source}."
        if leaf == "reqs":
            return f"{version} requests of {side}, by operation", f"The {version} operation counts in {source}."
        what = {"total": "nfsd threads configured", "pools": "nfsd thread pools",
                "requests": "requests that arrived at the thread pools",
                "enqueued": "times a request waited for a free nfsd thread",
                "processed": "times a request found an nfsd thread waiting",
                "timedout": "nfsd threads that timed out idle"}[leaf]
        return f"NFS server: {what}", "From /proc/fs/nfsd/pool_threads and pool_stats, summed over the pools."
    if p[0] == "rpc":
        side = {"client": "RPC client", "server": "RPC server"}[p[1]]
        source = "/proc/net/rpc/nfs" if p[1] == "client" else "/proc/net/rpc/nfsd"
        what = {"rpccnt": "calls", "rpcretrans": "calls retransmitted", "rpcauthrefresh": "credential refreshes",
                "netcnt": "network packets", "netudpcnt": "UDP packets", "nettcpcnt": "TCP packets",
                "nettcpconn": "TCP connections", "rpcerr": "calls rejected (the three kinds below together)",
                "rpcbadfmt": "calls rejected as malformed", "rpcbadauth": "calls rejected for bad authentication",
                "rpcbadclnt": "calls rejected from unknown clients", "rchits": "reply cache hits",
                "rcmisses": "reply cache misses", "rcnocache": "requests not cached",
                "fh_cached": "file handles found in the dentry cache", "fh_valid": "file handles validated",
                "fh_fixup": "file handles fixed up", "fh_lookup": "file handles needing a fresh lookup",
                "fh_stale": "stale file handles", "fh_concurrent": "file handles used concurrently",
                "fh_anon": "anonymous file handles", "fh_nocache_dir": "directory file handles not in the cache",
                "fh_nocache_nondir": "other file handles not in the cache", "io_read": "bytes read for clients",
                "io_write": "bytes written for clients", "th_cnt": "nfsd threads",
                "th_fullcnt": "times every nfsd thread was busy", "ra_size": "read-ahead cache size",
                "ra_hits": "read-ahead cache hits", "ra_misses": "read-ahead cache misses"}[leaf]
        note = f"From {source}."
        if name == "rpc.server.nettcpconn":
            note += " As in PCP's agent, this metric carries the TCP packet count."
        return f"{side}: {what}", note
    if name in NETADDR:
        return NETADDR[name], NETADDR_NOTE
    if name.startswith("network.interface."):
        return f"Network interface {NETIF['.'.join(p[2:])]}", "Counters from /proc/net/dev; settings from /sys/class/net or the interface ioctls."
    if name.startswith("network.all."):
        return f"{NETIF['.'.join(p[2:])].capitalize()}, all physical interfaces", "Loopback, bonding and teaming interfaces are left out."
    if p[1] in ("tcpconn", "tcpconn6", "udpconn", "udpconn6", "rawconn", "rawconn6", "unix"):
        kind = {"tcpconn": "TCP", "tcpconn6": "TCP over IPv6", "udpconn": "UDP", "udpconn6": "UDP over IPv6",
                "rawconn": "raw", "rawconn6": "raw IPv6", "unix": "Unix domain"}[p[1]]
        return f"{kind} sockets: {' '.join(p[2:]).replace('_', ' ')}", f"Counted from the socket table of /proc/net for {kind} sockets."
    if name.startswith("network.softnet."):
        scope = "each processor" if p[2] == "percpu" else "all processors"
        return f"Packet processing, {scope}: {p[-1].replace('_', ' ')}", "From /proc/net/softnet_stat."
    if name.startswith("network.sockstat."):
        return f"Sockets: {' '.join(p[2:])} from the kernel's socket summary", "From /proc/net/sockstat and /proc/net/sockstat6."
    if p[0] == "network":
        proto = PROTO[p[1]]
        src = PROTO_SOURCE.get(p[1], "/proc/net/snmp and /proc/net/netstat")
        return f"{proto} statistic \"{' '.join(p[2:])}\"", f"The kernel's {proto} counter of that name, from {src}."
    if name.startswith("kernel.all.pressure."):
        what = {"avg": "share of time stalled, averaged over 10 s, 1 min and 5 min",
                "total": "total time stalled"}[leaf]
        who = {"some": "some tasks", "full": "all non-idle tasks"}[p[4]]
        res = {"cpu": "CPU", "io": "I/O", "memory": "Memory", "irq": "Interrupt"}[p[3]]
        return f"{res} pressure, {who}: {what}", "From /proc/pressure (pressure stall information); the averages are\npercentages, the total is microseconds."
    if name.startswith("mem.ksm."):
        return f"Kernel same-page merging: {leaf.replace('_', ' ')}", "From /sys/kernel/mm/ksm (run_state is the run file, sleep_time\nsleep_millisecs)."
    if name.startswith("mem.vmstat."):
        kind = "events since boot" if sem == "counter" else "current count"
        return f"Virtual memory statistic {leaf} ({kind})", "The field of that name in /proc/vmstat (in pages where it counts pages)."
    if name.startswith("mem.util."):
        text = MEMINFO_NOTE.get(leaf, f"Memory: {camel_words(leaf)}")
        return text, "From /proc/meminfo."
    if name == "mem.buddyinfo.pages":
        return "Free blocks of each order in each memory zone", "From /proc/buddyinfo: blocks of 2^order pages the buddy allocator has\nfree, per zone and node."
    if name == "mem.buddyinfo.total":
        return "Free memory in blocks of each order in each memory zone", "From /proc/buddyinfo: the free blocks times their size, in kilobytes."
    if name.startswith("mem.slabinfo."):
        return SLABINFO[name[len("mem.slabinfo."):]], SLABINFO_NOTE
    if name == "mem.zoneinfo.protection":
        return "Memory each zone keeps back from allocations meant for a higher zone", "From the protection lines of /proc/zoneinfo, pages shown as kilobytes."
    if name.startswith("mem.zoneinfo."):
        return f"Memory zone statistic {leaf}", "The line of that name in /proc/zoneinfo for each zone (or node), pages\nshown as kilobytes as PCP's agent shows them."
    if name.startswith("mem.numa."):
        return f"NUMA node memory: {camel_words(' '.join(p[2:]))}", "From /sys/devices/system/node/nodeN/meminfo and numastat."
    if name.startswith("proc.psinfo."):
        return f"Process {PROC[leaf]}", PSINFO_NOTE.get(leaf, "From /proc/PID/stat, status and cmdline.")
    if name.startswith("proc.memory.maps"):
        return "Process memory map", "The text of /proc/PID/maps."
    if p[0] == "proc" and p[1] in PROC_OTHER:
        line, note = PROC_OTHER[p[1]]
        return line.format(" ".join(p[2:]).replace("_", " ")), note
    if name.startswith("proc.memory."):
        return f"Process memory: {PROC_MEM[leaf]}", "From /proc/PID/statm and status."
    if name.startswith("proc.io."):
        return f"Process I/O: {PROC_IO[leaf]}", "From /proc/PID/io."
    if name == "proc.id.container":
        return ("Process container id", "The container the process runs in, found in the cpuset line of\n"
                "/proc/PID/cgroup (a Docker or Podman scope's id); empty when none.")
    if name.startswith("proc.id."):
        what = {"uid": "real user", "euid": "effective user", "suid": "saved user", "fsuid": "file system user",
                "gid": "real group", "egid": "effective group", "sgid": "saved group", "fsgid": "file system group"}
        base = leaf[:-3] if leaf.endswith("_nm") else leaf
        text = f"Process {what[base]} {'name' if leaf.endswith('_nm') else 'id'}"
        note = "From /proc/PID/status."
        if base == "gid" and not leaf.endswith("_nm"):
            note += " As in PCP's agent, this metric carries the real user id."
        return text, note
    raise SystemExit(f"no help phrase for {name}")


def rows(path):
    out = []
    text = open(os.path.join(REPO, "pmdas", path)).read()
    for m in re.finditer(r'\{"([^"]+)", \d+, \d+, \w+, -?\d+, kSem(\w+), \{([^}]*)\}\}', text):
        out.append((m.group(1), m.group(2).lower(), m.group(3)))
    return out


NETADDR = {
    "network.interface.inet_addr": "IPv4 address of each network interface",
    "network.interface.ipv6_addr": "IPv6 address and prefix length of each network interface",
    "network.interface.ipv6_scope": "Scope of each network interface's IPv6 address",
    "network.interface.hw_addr": "Hardware (link layer) address of each network interface",
}
NETADDR_NOTE = ("IPv4 addresses come from the SIOCGIFCONF and SIOCGIFADDR ioctls, IPv6\n"
                "ones from /proc/net/if_inet6 (scope Global, Link, Site, Compat or\n"
                "Host), hardware ones from /sys/class/net/NAME/address.")

SLABINFO = {
    "objects.active": "Objects in use in each kernel slab cache",
    "objects.total": "Objects allocated in each kernel slab cache, in use or not",
    "objects.size": "Size of one object of each kernel slab cache",
    "slabs.active": "Slabs holding at least one object in use, per slab cache",
    "slabs.total": "Slabs allocated to each kernel slab cache",
    "slabs.pages_per_slab": "Pages making up one slab of each slab cache",
    "slabs.objects_per_slab": "Objects one slab of each slab cache holds",
    "slabs.total_size": "Memory held by the active objects of each slab cache",
}
SLABINFO_NOTE = ("From /proc/slabinfo, which only the super-user may read: other users get\n"
                 "no values. Fields the file's format version lacks have no value.")

INDOMS_LINUX = [
    ("LINUX.0", "One instance per online processor", 'Named "cpuN" and numbered N, from /proc/stat.'),
    ("LINUX.1", "One instance per whole disk", "From /proc/diskstats; partitions, loop, ram, zram, device-mapper,\nmd and optical devices are left out."),
    ("LINUX.2", "The three load average intervals", '"1 minute" (1), "5 minute" (5) and "15 minute" (15).'),
    ("LINUX.3", "One instance per network interface", "From /proc/net/dev, numbered in order of discovery."),
    ("LINUX.5", "One instance per mounted block device file system", "From /proc/mounts, named by device."),
    ("LINUX.10", "One instance per disk partition", "From /proc/diskstats."),
    ("LINUX.19", "One instance per NUMA node", 'Named "nodeN", from /sys/devices/system/node.'),
    ("LINUX.23", "One instance per ICMP message type seen", 'Named "TypeN", from the IcmpMsg lines of /proc/net/snmp.'),
    ("LINUX.32", "One instance per memory zone of each node, and per node", '"ZONE::nodeN" for a zone with pages present, "nodeN" for the statistics\nthe kernel keeps per node, from /proc/zoneinfo.'),
    ("LINUX.33", "One instance per zone and lower zone it protects", '"ZONE::nodeN::lowmem_reservedK", from /proc/zoneinfo.'),
    ("LINUX.17", "One instance per network interface name with an address", "Aliases such as eth0:1 included, numbered in order of discovery: those\nwith a hardware, IPv4 or IPv6 address."),
    ("LINUX.12", "One instance per kernel slab cache", "Named as /proc/slabinfo names it, numbered in order of discovery; a\ncache the last read did not list has no instance."),
    ("LINUX.31", "One instance per memory zone, block order and node", '"ZONE::orderN::nodeM", from /proc/buddyinfo, numbered in order of\ndiscovery.'),
    ("LINUX.37", "The three pressure averaging intervals", '"10 second" (10), "1 minute" (60) and "5 minute" (300).'),
    ("LINUX.24", "One instance per device-mapper device", "Named by its device-mapper name; devices without one are left out."),
    ("LINUX.25", "One instance per md device", "Named by its /dev/md link where it has one, else mdN."),
    ("LINUX.4", "One instance per interrupt source", 'Named by the first word of each line of /proc/interrupts ("24", "LOC"),\nnumbered in order of discovery.'),
    ("LINUX.36", "One instance per kind of soft interrupt", 'Named by the first word of each line of /proc/softirqs ("TIMER").'),
    ("LINUX.40", "One instance per interrupt source and processor", '"SOURCE::cpuN", from /proc/interrupts.'),
    ("LINUX.41", "One instance per kind of soft interrupt and processor", '"KIND::cpuN", from /proc/softirqs.'),
    ("LINUX.11", "One instance per SCSI device with a block device", 'Named "scsiH:C:I:L_TYPE" from /proc/scsi/scsi, numbered in order of\ndiscovery.'),
    ("LINUX.7", "One instance per NFS version 2 operation", 'Named by the operation ("getattr"), numbered in the order of the kernel\'s\nproc2 lines.'),
    ("LINUX.8", "One instance per NFS version 3 operation", 'Named by the operation, numbered in the order of the kernel\'s proc3 lines.'),
    ("LINUX.14", "One instance per NFS version 4 client operation", 'Named by the operation, numbered in the order of the kernel\'s proc4 line\nof /proc/net/rpc/nfs.'),
    ("LINUX.15", "One instance per NFS version 4 server operation", 'Named by the operation, numbered from 1 in the order of the kernel\'s\nproc4ops line of /proc/net/rpc/nfsd.'),
    ("LINUX.42", "One instance per disk WWID", 'Named by the WWID (hinv.map.scsi_id) of one or more disks, numbered in\norder of discovery.'),
    ("LINUX.38", "One instance per compressed RAM (zram) device", 'Named zramN, from /proc/diskstats, numbered in order of discovery.'),
    ("LINUX.35", "One instance per serial port with a known UART", 'Named by its port number in /proc/tty/driver/serial, numbered in order\nof discovery.'),
    ("LINUX.34", "One instance per SCSI tape drive", 'Named stN, from the drives of /sys/class/scsi_tape with a stats\ndirectory, numbered in order of discovery.'),
    ("LINUX.39", "One instance per Fibre Channel host", 'Named hostN, from the hosts of /sys/class/fc_host with a statistics\ndirectory, numbered in order of discovery.'),
]


GROUP_NAMES = 'Named by the group\'s path below its mount ("/", "/system.slice"), numbered\nin order of discovery.'
INDOMS_PROC = [
    ("PROC.9", "One instance per process", 'Numbered by process id, named "NNNNNN command" (the id in six\ndigits, then the command line up to its first blank).'),
    ("PROC.16", "One instance per control group (version 2)", GROUP_NAMES),
    ("PROC.17", "One instance per control group (version 2) and block device", '"GROUP::DEVICE", devices named from /proc/diskstats.'),
    ("PROC.20", "One instance per cpuset control group", GROUP_NAMES),
    ("PROC.21", "One instance per cpuacct control group", GROUP_NAMES),
    ("PROC.22", "One instance per cpuacct control group and processor", '"GROUP::cpuN", from the group\'s cpuacct.usage_percpu.'),
    ("PROC.23", "One instance per cpu control group", GROUP_NAMES),
    ("PROC.24", "One instance per memory control group", GROUP_NAMES),
    ("PROC.25", "One instance per net_cls control group", GROUP_NAMES),
    ("PROC.26", "One instance per blkio control group", GROUP_NAMES),
    ("PROC.27", "One instance per blkio control group and block device", '"GROUP::DEVICE", devices named from /proc/diskstats.'),
    ("PROC.37", "One instance per control group subsystem", "Named as in /proc/cgroups."),
    ("PROC.38", "One instance per control group mount", "Named by the mount point, from /proc/mounts."),
]


def write(path, header, entries, indoms):
    with open(os.path.join(REPO, "pmdas", path), "w") as f:
        f.write(header)
        for ident, line, note in indoms:
            f.write(f"@ {ident} {line}\n{note}\n\n")
        for name, sem, units in entries:
            line, note = one_line(name, sem, units)
            f.write(f"@ {name} {line}\n")
            if note:
                f.write(f"{note}\n\n")


def main():
    linux = []
    for t in ("table_kernel.cc", "table_mem.cc", "table_disk.cc", "table_net_ip.cc", "table_net.cc"):
        linux += rows("linux/" + t)
    write("linux/help", "# Help text of the built-in Linux agent, in the source form newhelp reads.\n"
          "# Generated by pmdas/tools/gen_help.py; LINUX stands for the agent's domain.\n\n", linux, INDOMS_LINUX)
    write("proc/help", "# Help text of the built-in proc agent, in the source form newhelp reads.\n"
          "# Generated by pmdas/tools/gen_help.py; PROC stands for the agent's domain.\n\n",
          rows("proc/table_proc.cc") + rows("proc/table_cgroup.cc"), INDOMS_PROC)
    print(len(linux), "linux entries")


if __name__ == "__main__":
    main()
