/*
 * dynlib.h: an optional shared library loaded on first use.  Each user
 * (store/pq_lazy.c, archive_io.c) keeps one struct dynlib and a struct of
 * function pointers filled from it; see dynlib.c for why.
 */
#ifndef PERFSIFT_DYNLIB_H
#define PERFSIFT_DYNLIB_H

#include "util/compat.h"
#include "util/strbuf.h"

struct dynlib {
	const char *soname;        /* "libpq.so.5" */
	const char *what;          /* "the PostgreSQL store", for errors */
	const char *const *names;  /* the functions, in the order of slots */
	size_t n;
	void *slots;               /* a struct of n function pointers */
	void *handle;              /* NULL until loaded */
};

/* load lib once; 0, or -1 with err naming the library and what needs it */
int dynlib_load(struct dynlib *lib, struct strbuf *err);

#endif
