/*
 * fuzz_monitors.c: libFuzzer harness for every monitor and benchmark
 * parser of the registry (monitors/registry.c).  An input is
 * "NAME\nRAW": NAME picks the parser (an unknown one: the input's first
 * byte, modulo the registry's size), RAW is its raw file.  The parsers'
 * `key: value` output then goes through samples.c (dump-stat) and
 * reduce.c, as `perfsift stats` takes it.
 */
#include "util/compat.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "monitors/monitor.h"
#include "result/reduce.h"
#include "result/samples.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *nl = memchr(data, '\n', size < 64 ? size : 64);
	const struct monitor_ops *m = NULL;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char *raw;
	size_t off = 0;

	if (!size || !monitor_count())
		return 0;
	if (nl) {
		char *name = xstrndup((const char *)data, (size_t)(nl - (const char *)data));

		m = monitor_find(name);
		free(name);
		off = (size_t)(nl - (const char *)data) + 1;
	}
	if (!m)
		m = monitor_at(data[0] % monitor_count());
	if (!m->parse)
		return 0;
	/* parsers get a NUL after the raw text, as a file read gives them */
	raw = xmalloc(size - off + 1);
	memcpy(raw, data + off, size - off);
	raw[size - off] = '\0';
	if (!m->parse(raw, size - off, m->name, &out, &err)) {
		struct samples s;
		struct reduce_stats st;
		struct reduce_window w = {0};

		samples_init(&s, m->name);
		reduce_stats_init(&st);
		strbuf_reset(&err);
		if (!samples_parse(&s, out.buf, out.len, m->name, &err)) {
			samples_finish(&s);
			reduce_samples(&s, &w, &st);
		}
		reduce_stats_release(&st);
		samples_release(&s);
	}
	free(raw);
	strbuf_release(&out);
	strbuf_release(&err);
	return 0;
}
