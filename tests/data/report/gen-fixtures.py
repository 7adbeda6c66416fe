#!/usr/bin/env python3
# gen-fixtures.py: writes the two result groups the report tests use
# (base/ and head/: matrix.json, and per run job.yaml, stats.json,
# meminfo.json), shaped like the seed: vm-scalability anon-r-seq,
# system_time -51%.  Deterministic; run from this directory.
import json, os, random

random.seed(20160405)
NRUNS = 5
# name: (base mean, head mean, relative noise)
STATS = {
    "vm-scalability.throughput": (5006238, 7496683, 0.004),
    "vm-scalability.time.system_time": (517.69, 253.81, 0.006),
    "vm-scalability.time.elapsed_time": (300.6, 300.5, 0.001),
    "vm-scalability.time.user_time": (41.2, 41.3, 0.01),
    "time.system_time": (517.69, 253.81, 0.006),
    "turbostat.CPU%c6": (0.46, 0.38, 0.02),
    "numa-vmstat.node0.nr_active_anon": (28006, 68134, 0.05),
    "numa-meminfo.node0.Active(anon)": (111528, 272658, 0.04),
    "proc-vmstat.pgfault": (2002000000, 999300000, 0.003),
    "cpuidle.C1-HSW.usage": (1731, 2612, 0.05),
    "slabinfo.kmem_cache.active_objs": (336.6, 267.75, 0.03),
    "meminfo.MemFree": (24100000, 24090000, 0.002),
    "meminfo.Active(anon)": (120000, 4100000, 0.01),
    "vmstat.system.cs": (1520, 1515, 0.02),
    "interrupts.CAL:Function_call_interrupts": (8200, 8150, 0.03),
    "latency_stats.sum.<wait>&\"io\"": (1200, 5400, 0.04),
}
for n in range(12):
    STATS["proc-vmstat.filler_%02d" % n] = (1000 + 37 * n, 1000 + 37 * n, 0.01)

JOB = """suite: vm-scalability
testcase: vm-scalability
category: benchmark
runtime: 300s
cpufreq_governor: performance
vm-scalability:
  test: anon-r-seq
testbox: lkp-hsx04
tbox_group: lkp-hsx04
arch: x86_64
kconfig: x86_64-rhel
commit: %s
rootfs: debian
compiler: gcc-12
nr_cpu: "144"
memory: 512G
model: Brickland Haswell-EX
env_kernel_cmdline: root=/dev/vda1 quiet
env_thp_enabled: always
env_thp_defrag: madvise
env_cpufreq_governor: performance
env_kconfig_hash: fnv1a64:0123456789abcdef
"""

def value(mean, noise, is_int):
    v = random.gauss(mean, mean * noise)
    return int(round(v)) if is_int else round(v, 2)

for side, col, commit in (("base", 0, "v4.6-rc2"),
                          ("head", 1, "5f155ea5ab62b5321aa7315de62d21da59aa8c65")):
    matrix = {k: [] for k in sorted(STATS)}
    for run in range(NRUNS):
        d = os.path.join(side, str(run))
        os.makedirs(d, exist_ok=True)
        stats = {}
        for k in sorted(STATS):
            mean = STATS[k][col]
            is_int = isinstance(mean, int)
            v = value(mean, STATS[k][2], is_int)
            stats[k] = v
            matrix[k].append(v)
        with open(os.path.join(d, "job.yaml"), "w") as f:
            f.write(JOB % commit)
        with open(os.path.join(d, "stats.json"), "w") as f:
            json.dump(stats, f, indent=2, sort_keys=True)
            f.write("\n")
        # the time series of one monitor: Active(anon) grows while
        # anon-r-seq maps its memory, then holds
        end = stats["meminfo.Active(anon)"]
        series = [int(end * min(1.0, (i + 1) / 20.0)) for i in range(30)]
        free = [24100000 - s for s in series]
        with open(os.path.join(d, "meminfo.json"), "w") as f:
            json.dump({"meminfo.Active(anon)": series,
                       "meminfo.MemFree": free}, f)
            f.write("\n")
        with open(os.path.join(d, "meminfo"), "w") as f:
            for i in range(3):
                f.write("time: %d\nMemFree: %d kB\nActive(anon): %d kB\n"
                        % (1459900000 + i, free[i], series[i]))
    matrix["stats_source"] = ["%s/%d/stats.json" % (side, r) for r in range(NRUNS)]
    with open(os.path.join(side, "matrix.json"), "w") as f:
        json.dump(matrix, f, indent=2)
        f.write("\n")
