/*
 * fuzz_csv.c: libFuzzer harness for `history --csv`'s reader,
 * history_read_csv(), the one input of history that comes from outside
 * perfsift (a CSV another tool wrote): every column, then one named
 * column, so both paths of the reader run.  The stat rules are made once:
 * compiling LKP's tables per input would leave the fuzzer at a few inputs
 * a second.
 */
#include "util/compat.h"
#include <stdint.h>
#include <stdio.h>
#include "history/load.h"
#include "compare/rules.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_once(const uint8_t *data, size_t size, const char *stat,
		      struct stat_rules *rules)
{
	struct history_set set;
	struct strbuf err = STRBUF_INIT;
	FILE *fp = fmemopen((void *)data, size, "r");

	if (!fp)
		return; /* fmemopen refuses size 0 */
	history_set_init(&set);
	history_read_csv(fp, "fuzz.csv", stat, rules, &set, &err);
	history_set_release(&set);
	strbuf_release(&err);
	fclose(fp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct stat_rules rules;
	static bool ready;

	if (!ready) {
		stat_rules_init(&rules);
		ready = true;
	}
	read_once(data, size, NULL, &rules);
	read_once(data, size, "ms", &rules);
	return 0;
}
