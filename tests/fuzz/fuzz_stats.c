/*
 * fuzz_stats.c: libFuzzer harness for stats.json: reduce_stats_parse_json(),
 * then reduce_stats_to_json() of what parses (matrix.json is rebuilt from
 * the runs' stats.json files, which may come from an LKP root).
 */
#include "util/compat.h"
#include <stdint.h>
#include "result/reduce.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reduce_stats st;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;

	reduce_stats_init(&st);
	if (!reduce_stats_parse_json(&st, (const char *)data, size, "stats.json",
				     &err))
		reduce_stats_to_json(&st, &out);
	reduce_stats_release(&st);
	strbuf_release(&err);
	strbuf_release(&out);
	return 0;
}
