/*
 * bundle.h: the files `perfsift report -o DIR` writes beside the
 * report: job.yaml and repro.tar.gz (README, job.yaml, env.yaml, and
 * matrix.json plus every run's files of both sides).
 */
#ifndef PERFSIFT_REPORT_BUNDLE_H
#define PERFSIFT_REPORT_BUNDLE_H

#include "util/compat.h"

struct job;
struct strbuf;

struct report_side {
	const char *name;      /* "base" or "head": the directory in the bundle */
	const char *group_dir; /* the result group directory, or NULL */
};

/*
 * The job of the first run (in run order) of group_dir that has a
 * job.yaml; *job = NULL when there is none.  -1 with err when a job.yaml
 * does not load.
 */
int report_load_job(const char *group_dir, struct job **job,
		    struct strbuf *err);
/* the job as YAML without the machine facts and env_* fingerprint */
void report_repro_job(const struct job *job, struct strbuf *out);
/* "<side>:" and the machine facts and env_* keys of job, indented */
void report_env_yaml(struct strbuf *out, const char *side,
		     const struct job *job);
/*
 * write the tarball atomically (temporary name, rename); base_job_yaml
 * (NULL: the same job) is the base's; -1 with err
 */
int report_bundle_write(const char *path, const struct report_side *sides,
			size_t nsides, const char *job_yaml,
			const char *base_job_yaml, const char *env_yaml,
			struct strbuf *err);

#endif
