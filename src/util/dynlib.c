/*
 * dynlib.c: optional libraries loaded on first use (dlopen).  libpq and
 * libarchive bring some 30 more shared objects with them (ICU, GnuTLS,
 * Kerberos, LDAP ...), and relocating those cost every perfsift command
 * about 50 ms -- more than compare's whole 50,000-stat table -- although
 * only the PostgreSQL store, compressed raw files and the report bundle
 * use them.  So they are not linked; the few functions perfsift calls are
 * looked up here the first time one of those features is used.
 */
#include "util/compat.h"
#include <dlfcn.h>
#include <string.h>
#include "util/dynlib.h"

int dynlib_load(struct dynlib *lib, struct strbuf *err)
{
	void *h;
	size_t i;

	/* POSIX: a function pointer and void * have the same representation */
	_Static_assert(sizeof(void (*)(void)) == sizeof(void *),
		       "function pointers must fit a void *");
	if (lib->handle)
		return 0;
	h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		strbuf_addf(err, "%s needs %s: %s", lib->what, lib->soname,
			    dlerror());
		return -1;
	}
	for (i = 0; i < lib->n; i++) {
		void *sym = dlsym(h, lib->names[i]);

		if (!sym) {
			strbuf_addf(err, "%s: '%s' has no %s()", lib->what,
				    lib->soname, lib->names[i]);
			dlclose(h);
			return -1;
		}
		memcpy((char *)lib->slots + i * sizeof(void *), &sym, sizeof(sym));
	}
	lib->handle = h;
	return 0;
}
