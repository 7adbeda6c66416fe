/*
 * fuzz_job.c: libFuzzer harness for the job parser -- a job file's text
 * through job_load_string() (YAML, aliases, documents, the schema), then
 * split_job() and job_to_yaml() of what loads, as `perfsift split` does.
 * Job files come from users and, soon, from a shared queue.
 */
#include "util/compat.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "job/job.h"
#include "job/split.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmalloc(size + 1);
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct job **jobs = NULL;
	size_t njobs = 0, i;

	memcpy(text, data, size);
	text[size] = '\0'; /* a NUL inside ends the text, as in a file check */
	if (!job_load_string(text, "fuzz.yaml", &jobs, &njobs, &err)) {
		for (i = 0; i < njobs; i++) {
			struct job **parts = NULL;
			size_t nparts = 0, k;

			strbuf_reset(&err);
			if (split_job(jobs[i], &parts, &nparts, &err))
				continue;
			for (k = 0; k < nparts && k < 8; k++) {
				strbuf_reset(&out);
				job_to_yaml(parts[k], &out);
				job_path_params(parts[k], &out);
			}
			job_free_all(parts, nparts);
		}
		job_free_all(jobs, njobs);
	}
	strbuf_release(&err);
	strbuf_release(&out);
	free(text);
	return 0;
}
