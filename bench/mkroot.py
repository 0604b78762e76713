# SPDX-License-Identifier: ISC
"""Generated fixture roots for the scale benchmarks.

A root is tests/fixtures/agent's proc tree with /proc/diskstats and
/proc/net/softnet_stat replaced: N whole disks (names the default device
filter keeps), each with a /sys/block/<dev>/queue directory, and C CPUs'
softnet rows. Roots are made under a temporary directory, never in the
source tree.
"""

import os
import shutil


def disk_name(i):
    """sda, sdb, ... sdz, sdaa, sdab, ... as the kernel names SCSI disks."""
    letters = ""
    i += 1
    while i > 0:
        i, r = divmod(i - 1, 26)
        letters = chr(ord("a") + r) + letters
    return "sd" + letters


def disk_key(i):
    """A unique (major, minor) per disk, 16 disks to a major like sd."""
    return 65 + i // 16, (i % 16) * 16


def diskstats(ndisks):
    lines = []
    for i in range(ndisks):
        major, minor = disk_key(i)
        # 17 counters (Linux 5.5 and later), different per disk.
        reads = 1000 + i
        c = [reads, 10, reads * 8, reads * 2, 500 + i, 20, (500 + i) * 8, (500 + i) * 3, 0,
             reads + 500, reads * 5, 0, 0, 0, 0, 10, 20]
        lines.append("%4d %7d %s %s" % (major, minor, disk_name(i), " ".join(map(str, c))))
    return "\n".join(lines) + "\n"


def softnet(ncpus):
    rows = []
    for cpu in range(ncpus):
        cols = [0x1000 + cpu, cpu % 3, cpu % 5] + [0] * 7 + [0, 0, cpu]
        rows.append(" ".join("%08x" % v for v in cols))
    return "\n".join(rows) + "\n"


QUEUE = {
    "scheduler": "mq-deadline kyber [bfq] none\n",
    "nr_requests": "64\n",
    "read_ahead_kb": "128\n",
    "wbt_lat_usec": "75000\n",
    "rotational": "1\n",
}


def make_root(base, ndisks, ncpus, fixtures):
    """Create base/proc and base/sys; return base."""
    proc = os.path.join(base, "proc")
    if os.path.exists(base):
        shutil.rmtree(base)
    shutil.copytree(os.path.join(fixtures, "agent", "proc"), proc, symlinks=True)
    with open(os.path.join(proc, "diskstats"), "w") as fh:
        fh.write(diskstats(ndisks))
    with open(os.path.join(proc, "net", "softnet_stat"), "w") as fh:
        fh.write(softnet(ncpus))
    block = os.path.join(base, "sys", "block")
    for i in range(ndisks):
        q = os.path.join(block, disk_name(i), "queue")
        os.makedirs(q)
        for name, text in QUEUE.items():
            with open(os.path.join(q, name), "w") as fh:
                fh.write(text)
    return base


def udp_lines(nsockets, dropping, first_inode=100000):
    """/proc/net/udp with nsockets sockets on 0.0.0.0, as the kernel prints
    them; the first `dropping` have dropped (a drop count that stays put,
    so no sample sees drops grow)."""
    lines = ["   sl  local_address rem_address   st tx_queue rx_queue tr tm->when "
             "retrnsmt   uid  timeout inode ref pointer drops            "]
    for i in range(nsockets):
        drops = 1000 + i if i < dropping else 0
        lines.append("%5d: 00000000:%04X 00000000:0000 07 00000000:00000000 00:00000000 "
                     "00000000 %5d %8d %d 2 %016x %-7d" % (
                         i % 65536, 1024 + i % 60000, 0, 0, first_inode + i,
                         0xffff888000000000 + i * 64, drops))
    return "\n".join(lines) + "\n"


def add_sockets(base, nsockets, dropping):
    """Write base/proc/net/udp (see udp_lines)."""
    with open(os.path.join(base, "proc", "net", "udp"), "w") as fh:
        fh.write(udp_lines(nsockets, dropping))


def add_processes(base, nprocs, fds_per_proc, first_pid=10000, first_inode=5000000):
    """nprocs processes under base/proc, each with fds_per_proc fd entries:
    0-2 link to /dev/pts/0, the rest to sockets no socket file lists (so
    an owner search for any listed socket reads them all)."""
    proc = os.path.join(base, "proc")
    inode = first_inode
    for p in range(nprocs):
        pid = first_pid + p
        fd = os.path.join(proc, str(pid), "fd")
        os.makedirs(fd)
        with open(os.path.join(proc, str(pid), "comm"), "w") as fh:
            fh.write("worker%d\n" % p)
        for n in range(fds_per_proc):
            target = "/dev/pts/0" if n < 3 else "socket:[%d]" % inode
            inode += 1
            os.symlink(target, os.path.join(fd, str(n)))


# A cgroup v2 directory as the kernel lays it out (6.x): the files tunewatch
# reads, with plausible contents, and the other control files, which a walk
# lists and skips.
CG_OTHER = ("cgroup.controllers cgroup.events cgroup.freeze cgroup.kill cgroup.max.depth "
            "cgroup.max.descendants cgroup.procs cgroup.stat cgroup.subtree_control "
            "cgroup.threads cgroup.type cpu.idle cpu.max cpu.max.burst cpu.pressure cpu.stat "
            "cpu.weight cpu.weight.nice io.max io.weight memory.low memory.min "
            "memory.events.local memory.numa_stat memory.oom.group memory.swap.current "
            "memory.swap.events memory.swap.high memory.swap.max pids.current pids.events "
            "pids.max").split()

MEMSTAT_KEYS = ("anon file kernel kernel_stack pagetables sec_pagetables percpu sock vmalloc "
                "shmem file_mapped file_dirty file_writeback swapcached anon_thp file_thp "
                "shmem_thp inactive_anon active_anon inactive_file active_file unevictable "
                "slab_reclaimable slab_unreclaimable slab workingset_refault_anon "
                "workingset_refault_file workingset_activate_anon workingset_activate_file "
                "workingset_restore_anon workingset_restore_file workingset_nodereclaim pgscan "
                "pgsteal pgscan_kswapd pgscan_direct pgsteal_kswapd pgsteal_direct pgfault "
                "pgmajfault pgrefill pgactivate pgdeactivate pglazyfree pglazyfreed "
                "thp_fault_alloc thp_collapse_alloc").split()

PSI = "some avg10=0.00 avg60=0.00 avg300=0.00 total=1234\nfull avg10=0.00 avg60=0.00 " \
      "avg300=0.00 total=567\n"


def io_stat(i, n):
    """Service i's io.stat, or (i < 0) system.slice's, which holds the sum
    of its n services' as the kernel sums v2 io.stat up the tree."""
    svcs = range(n) if i < 0 else (i,)
    rbytes = sum((j + 2) * 1048576 for j in svcs)
    wbytes = sum((j + 2) * 4096 for j in svcs)
    return ("254:0 rbytes=%d wbytes=%d rios=%d wios=%d dbytes=0 dios=0\n"
            "8:0 rbytes=%d wbytes=0 rios=%d wios=0 dbytes=0 dios=0\n" % (
                rbytes, wbytes, 10 * len(svcs), 10 * len(svcs), 4096 * len(svcs), len(svcs)))


def add_cgroups(base, n):
    """n services under base/sys/fs/cgroup/system.slice, each with I/O and
    every other one with a memory.high; return base."""
    top = os.path.join(base, "sys", "fs", "cgroup")
    os.makedirs(top, exist_ok=True)
    with open(os.path.join(top, "cgroup.controllers"), "w") as fh:
        fh.write("cpuset cpu io memory hugetlb pids rdma misc\n")
    for i in range(-1, n):
        d = os.path.join(top, "system.slice") if i < 0 else \
            os.path.join(top, "system.slice", "svc%04d.service" % i)
        os.makedirs(d, exist_ok=True)
        files = {name: "0\n" for name in CG_OTHER}
        files.update({
            "memory.current": "%d\n" % (50000000 + i * 4096),
            "memory.high": "%d\n" % (64 << 20) if i % 2 == 0 else "max\n",
            "memory.max": "max\n",
            "memory.stat": "".join("%s %d\n" % (k, 1000 + i + j)
                                   for j, k in enumerate(MEMSTAT_KEYS)),
            "memory.events": "low 0\nhigh %d\nmax 0\noom 0\noom_kill 0\n" % i,
            "memory.pressure": PSI,
            "io.stat": io_stat(i, n),
            "io.pressure": PSI,
        })
        for name, text in files.items():
            with open(os.path.join(d, name), "w") as fh:
                fh.write(text)
    return base


def add_cgroup_processes(base, n, first_pid=20000):
    """One process for each of add_cgroups' n services, as a host has (systemd
    removes a service's cgroup when its last process exits): base/proc/PID
    with io, stat, comm and fds 0-2, as a sample reads every process's io
    and stat, and the service's cgroup.procs listing PID. The root's other
    processes stay."""
    proc = os.path.join(base, "proc")
    top = os.path.join(base, "sys", "fs", "cgroup", "system.slice")
    for i in range(n):
        pid = first_pid + i
        d = os.path.join(proc, str(pid))
        os.makedirs(os.path.join(d, "fd"))
        with open(os.path.join(d, "io"), "w") as fh:
            fh.write("rchar: %d\nwchar: 500\nsyscr: 100\nsyscw: 10\nread_bytes: %d\n"
                     "write_bytes: 0\ncancelled_write_bytes: 0\n" % (
                         1000000 + i * 4096, 100000 + i * 512))
        with open(os.path.join(d, "stat"), "w") as fh:
            fh.write("%d (svc%04d) S 1 %d %d 0 -1 4194304 100 0 0 0 10 5 0 0 20 0 1 0 %d "
                     "10000000 500 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 "
                     "0 0\n" % (pid, i, pid, pid, 5000 + i))
        with open(os.path.join(d, "comm"), "w") as fh:
            fh.write("svc%04d\n" % i)
        for fd in range(3):
            os.symlink("/dev/pts/0", os.path.join(d, "fd", str(fd)))
        with open(os.path.join(top, "svc%04d.service" % i, "cgroup.procs"), "w") as fh:
            fh.write("%d\n" % pid)
    return base
