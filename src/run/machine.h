/*
 * machine.h: the facts about the machine a run is made on, as LKP's local
 * run fills them into the job (spec/lkp-compare.md 7: testbox, tbox_group,
 * arch, kconfig, commit, rootfs, compiler, nr_cpu, memory) plus what a
 * performance engineer needs to trust a comparison: the CPU model and an
 * environment fingerprint (kernel command line, THP settings, cpufreq
 * governor, a hash of the running kernel's config, whether read faults map
 * the zero page).  Saved in the run's
 * job.yaml.
 */
#ifndef PERFSIFT_MACHINE_H
#define PERFSIFT_MACHINE_H

#include "util/compat.h"

struct job;

struct machine {
	char *testbox;        /* host name */
	char *tbox_group;     /* testbox minus a trailing -N */
	char *arch;           /* uname -m */
	char *kernel_release; /* uname -r: LKP's local-run commit */
	char *rootfs;         /* /etc/os-release ID ("debian") */
	char *compiler;       /* /usr/bin/gcc's target ("gcc-12") */
	unsigned nr_cpu;      /* online CPUs */
	uint64_t mem_total;   /* bytes, MemTotal */
	char *memory;         /* MemTotal rounded to whole GiB: "24G" */
	char *cpu_model;      /* /proc/cpuinfo "model name" (or equivalent) */
	char *cmdline;        /* /proc/cmdline */
	char *thp_enabled;    /* selected word, or "unavailable" */
	char *thp_defrag;
	char *governor;       /* cpu0's scaling_governor, or "none" */
	char *kconfig_hash;   /* "fnv1a64:<hex>" of the kernel config, or "unavailable" */
	const char *zero_page; /* read faults map the zero page: "yes", "no", "unknown" */
};

/*
 * Collect the facts; files are read under sysroot ("/" normally, a fake
 * tree in tests).  Never fails: what cannot be read is "unknown" (or the
 * value named above).
 */
void machine_probe(struct machine *m, const char *sysroot);
void machine_release(struct machine *m);

/* LKP's tbox_group: name minus a trailing "-<digits>"; caller frees */
char *machine_tbox_group(const char *testbox);

/*
 * Fill the facts into an atomic job as LKP's local run does: testbox,
 * tbox_group and arch when the job has none; kconfig "defconfig" unless
 * the job names one; commit = `commit` if not NULL, else the job's, else
 * the kernel release; rootfs, compiler, nr_cpu, memory always from this
 * machine; then the CPU model and the fingerprint (model, env_*).
 */
void machine_fill_job(const struct machine *m, struct job *job,
		      const char *commit);

#endif
