/*
 * pq_lazy.c: the libpq table behind pq_lazy.h.  The loaded state is a
 * file-level cache (filled once, never changed after), the one kind of
 * global the house style allows besides signal flags.
 */
#include "util/compat.h"

#ifdef HAVE_LIBPQ
#define PQ_LAZY_IMPL
#include "store/pq_lazy.h"
#include "util/dynlib.h"
#include "util/usage.h"

static struct pq_lazy_api api;
static const char *const names[] = {
#define PQ_LAZY_NAME(f) #f,
	PQ_LAZY_FUNCS(PQ_LAZY_NAME)
#undef PQ_LAZY_NAME
};
static struct dynlib lib = {
	"libpq.so.5", "the PostgreSQL store", names, ARRAY_SIZE(names), &api,
	NULL,
};

int pq_lazy_load(struct strbuf *err)
{
	return dynlib_load(&lib, err);
}

const struct pq_lazy_api *pq_lazy_api(void)
{
	if (!lib.handle)
		BUG("libpq used before pq_lazy_load()");
	return &api;
}
#endif /* HAVE_LIBPQ */
