/*
 * sampling.h: how a monitor samples its sources (the monitors module's
 * side of monitor.h).  The sampler (sampler.c) opens every monitor of a
 * job once, calls sample() on its fixed-rate clock and appends what it
 * returns -- LKP's raw text, `time: <epoch>` first -- to <out_dir>/<name>.
 * Sources live under a sysroot so that tests can use fake /proc trees.
 */
#ifndef PERFSIFT_SAMPLING_H
#define PERFSIFT_SAMPLING_H

#include "util/compat.h"
#include "util/strbuf.h"

struct job;
struct monitor_ops;
struct mon_slot;

/*
 * The sources of one sampler that several monitors read (vmstat computes
 * its columns from /proc/stat, meminfo and vmstat, which proc-stat,
 * meminfo and proc-vmstat dump): within one tick the kernel makes each
 * text once, and the second reader copies it.
 */
struct mon_share {
	uint64_t tick; /* bumped by the sampler before each round of samples */
	struct mon_slot **slots;
	size_t n, alloc;
};
void mon_share_init(struct mon_share *sh);
void mon_share_release(struct mon_share *sh);

struct mon_inst {
	const struct monitor_ops *ops;
	const char *sysroot;   /* "/" normally */
	const struct job *job; /* for the monitor's parameters; may be NULL */
	double interval;       /* seconds; 0: start and stop snapshots only */
	bool named;            /* the job names it (not only the default set) */
	struct mon_share *share; /* NULL: nothing shared */
	void *priv;            /* the monitor's own state, open -> close */
};

struct monitor_sampling {
	/*
	 * LKP's default interval in seconds; 0 means one snapshot at start
	 * and one at stop unless the job gives an interval; -1 means a
	 * single snapshot at stop (latency_stats).
	 */
	double default_interval;
	bool in_default_set; /* sampled for `category: benchmark` jobs */
	/* open the sources once; -1 with a reason: "no cpuidle driver" */
	int (*open)(struct mon_inst *mi, struct strbuf *why);
	/* append one sample (raw text) to out; final is the stop sample */
	int (*sample)(struct mon_inst *mi, struct strbuf *out, bool final);
	void (*close)(struct mon_inst *mi);
};

/* a job parameter of this monitor (`proc-vmstat: {interval: 10}`) or NULL */
const char *mon_param(const struct mon_inst *mi, const char *name);
/* a number option of this monitor by the program table's type, or dflt */
double mon_param_double(const struct mon_inst *mi, const char *name,
			double dflt);
/* a top-level duration of the job (runtime), by its type; 0 when none */
double mon_job_seconds(const struct mon_inst *mi, const char *key);
/* the monitor's typed parameter struct (its program-table entry's), filled */
void mon_params(const struct mon_inst *mi, void *params);

/* `time: <epoch seconds with ns>` line */
void mon_add_time(struct strbuf *out);

/* a source file opened once and re-read from offset 0 with pread */
struct mon_file {
	int fd;
	size_t hint;   /* the largest size read, to have room for it next time */
	bool one_show; /* a sysfs attribute: one read returns all of it */
	struct mon_slot *slot; /* shared with other monitors, or NULL */
};
int mon_file_open(struct mon_file *f, const char *sysroot, const char *rel,
		  struct strbuf *why);
/* append the whole file to out; -1 on a read error */
int mon_file_read(struct mon_file *f, struct strbuf *out);
void mon_file_close(struct mon_file *f);
/* let monitors that read rel in the same tick share one read (mi->share) */
void mon_file_share(struct mon_inst *mi, struct mon_file *f, const char *rel);

/* the absolute path of rel under sysroot into sb */
void mon_path(struct strbuf *sb, const char *sysroot, const char *rel);

/* online CPUs (perf counters are per CPU; 0..n-1) */
int mon_nr_cpus(const char *sysroot);
struct perf_event_attr;
/* perf_event_open(2), close-on-exec; -1 with errno */
int mon_perf_open(struct perf_event_attr *attr, int pid, int cpu);

/* monitors that dump one file: proc-vmstat, meminfo, slabinfo, ... */
int mon_single_open(struct mon_inst *mi, const char *rel, struct strbuf *why);
int mon_single_sample(struct mon_inst *mi, struct strbuf *out, bool final);
void mon_single_close(struct mon_inst *mi);

#define MON_SINGLE_FILE(var, rel, interval, dflt)                              \
	static int var##_open(struct mon_inst *mi, struct strbuf *why)         \
	{                                                                      \
		return mon_single_open(mi, rel, why);                          \
	}                                                                      \
	const struct monitor_sampling var = {                                  \
		interval, dflt, var##_open, mon_single_sample,                 \
		mon_single_close,                                              \
	}

/* every monitor's sampling, by file */
extern const struct monitor_sampling sampling_buddyinfo;
extern const struct monitor_sampling sampling_cpuidle;
extern const struct monitor_sampling sampling_diskstats;
extern const struct monitor_sampling sampling_interrupts;
extern const struct monitor_sampling sampling_kmsg;
extern const struct monitor_sampling sampling_latency_stats;
extern const struct monitor_sampling sampling_meminfo;
extern const struct monitor_sampling sampling_mpstat;
extern const struct monitor_sampling sampling_numa_meminfo;
extern const struct monitor_sampling sampling_numa_numastat;
extern const struct monitor_sampling sampling_numa_vmstat;
extern const struct monitor_sampling sampling_pagetypeinfo;
extern const struct monitor_sampling sampling_perf_profile;
extern const struct monitor_sampling sampling_perf_stat;
extern const struct monitor_sampling sampling_proc_stat;
extern const struct monitor_sampling sampling_proc_vmstat;
extern const struct monitor_sampling sampling_sched_debug;
extern const struct monitor_sampling sampling_slabinfo;
extern const struct monitor_sampling sampling_softirqs;
extern const struct monitor_sampling sampling_turbostat;
extern const struct monitor_sampling sampling_vmstat;

#endif
