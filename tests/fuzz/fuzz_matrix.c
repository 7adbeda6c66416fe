/*
 * fuzz_matrix.c: libFuzzer harness for matrix.json (LKP's and ours):
 * matrix_parse_json(), then matrix_to_json() of what parses -- compare and
 * report read matrix.json files copied in from other machines.
 */
#include "util/compat.h"
#include <stdint.h>
#include "result/matrix.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct matrix m;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;

	if (!matrix_parse_json(&m, (const char *)data, size, "matrix.json", &err))
		matrix_to_json(&m, &out);
	matrix_release(&m);
	strbuf_release(&err);
	strbuf_release(&out);
	return 0;
}
