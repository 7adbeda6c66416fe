/*
 * vm_modules.c: the few modules of a package's tree a guest gets
 * (vm_modules.h).  The tree is walked once for its .ko files; each
 * module wanted is read for its .modinfo section's `depends=` (the list
 * modpost wrote, the one depmod reads too), its dependencies first, so
 * the picked modules come out in an order they can be loaded in, and
 * each one's modules.dep line lists all it needs, as depmod's does: the
 * module itself, then the modules it needs, each before those it needs
 * in turn -- modprobe loads them from the end of the line.
 */
#include "util/compat.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "run/vm_modules.h"
#include "util/fileutil.h"
#include "util/xalloc.h"

/*
 * What a qemu guest may use from a distribution kernel's modules: the
 * virtio transports and devices (Debian's cloud kernel builds virtio as
 * modules) and 9p over virtio, a host directory shared into the guest.
 * The serial ports and the initramfs the run itself needs are built into
 * every kernel (vm.c); these are for the job's own use, `modprobe
 * virtio_net` as t3406 does.
 */
static const char *const vm_modules[] = {
	"virtio_pci",     "virtio_mmio",  "virtio_net",  "virtio_blk",
	"virtio_scsi",    "virtio_console", "virtio_balloon", "virtio_rng",
	"virtiofs",       "9pnet_virtio", "9p",
};

/* one .ko of the tree */
struct kmod {
	char *name; /* the module's name: the file's, `-` made `_` */
	char *rel;  /* its path below the tree */
	enum { KMOD_NEW, KMOD_BUSY, KMOD_OK, KMOD_OUT } state;
	char **deps; /* the names its `depends=` lists, once read */
	size_t ndeps;
};

struct tree {
	const char *dir;
	struct kmod *mods;
	size_t nmods, alloc;
	struct strbuf *err;
};

/* a module's name from its file name: "virtio-rng.ko" is virtio_rng */
static char *mod_name(const char *file, size_t len)
{
	char *n = xstrndup(file, len), *p;

	for (p = n; *p; p++)
		if (*p == '-')
			*p = '_';
	return n;
}

/* every .ko below rel (relative to the tree's dir) */
static int walk(struct tree *t, const char *rel)
{
	struct strbuf path = STRBUF_INIT, sub = STRBUF_INIT;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0;

	path_join(&path, t->dir, rel);
	d = opendir(path.buf);
	if (!d) {
		strbuf_addf(t->err, "cannot read '%s': %s", path.buf,
			    strerror(errno));
		strbuf_release(&path);
		return -1;
	}
	while (!ret && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		strbuf_reset(&sub);
		path_join(&sub, rel, de->d_name);
		strbuf_reset(&path);
		path_join(&path, t->dir, sub.buf);
		if (lstat(path.buf, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			ret = walk(t, sub.buf);
		} else if (S_ISREG(st.st_mode) && len > 3 &&
			   !strcmp(de->d_name + len - 3, ".ko")) {
			struct kmod *m;

			ALLOC_GROW(t->mods, t->nmods + 1, t->alloc);
			m = &t->mods[t->nmods++];
			memset(m, 0, sizeof(*m));
			m->name = mod_name(de->d_name, len - 3);
			m->rel = xstrdup(sub.buf);
		}
	}
	closedir(d);
	strbuf_release(&path);
	strbuf_release(&sub);
	return ret;
}

static struct kmod *find(struct tree *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nmods; i++)
		if (!strcmp(t->mods[i].name, name))
			return &t->mods[i];
	return NULL;
}

/* the names of a "depends=a,b" value into m->deps (none: an empty value) */
static void add_deps(struct kmod *m, const char *v, size_t len)
{
	size_t alloc = 0;

	while (len) {
		const char *comma = memchr(v, ',', len);
		size_t n = comma ? (size_t)(comma - v) : len;

		if (n) {
			ALLOC_GROW(m->deps, m->ndeps + 1, alloc);
			m->deps[m->ndeps++] = mod_name(v, n);
		}
		if (!comma)
			break;
		len -= n + 1;
		v = comma + 1;
	}
}

/*
 * m's `depends=` from its .modinfo section (NUL-separated key=value
 * strings).  -1 with err when the file is no ELF object with one.
 */
static int read_deps(struct tree *t, struct kmod *m)
{
	static const char key[] = "depends=";
	struct strbuf path = STRBUF_INIT;
	Elf_Scn *scn = NULL;
	Elf *elf = NULL;
	size_t shstr;
	int fd, ret = -1;

	path_join(&path, t->dir, m->rel);
	fd = open(path.buf, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && elf_version(EV_CURRENT) != EV_NONE)
		elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && !elf_getshdrstrndx(elf, &shstr)) {
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *name;

			if (!gelf_getshdr(scn, &sh))
				continue;
			name = elf_strptr(elf, shstr, sh.sh_name);
			if (name && !strcmp(name, ".modinfo"))
				break;
		}
	}
	if (scn) {
		Elf_Data *data = elf_getdata(scn, NULL);
		const char *p = data ? data->d_buf : NULL;
		size_t off = 0, size = data ? data->d_size : 0;

		/* each string ends in a NUL; an unended last one is not read */
		while (p && off < size) {
			const char *s = p + off;
			const char *nul = memchr(s, '\0', size - off);

			if (!nul)
				break;
			if (!strncmp(s, key, sizeof(key) - 1))
				add_deps(m, s + sizeof(key) - 1,
					 (size_t)(nul - s) - (sizeof(key) - 1));
			off += (size_t)(nul - s) + 1;
		}
		ret = 0;
	} else {
		strbuf_addf(t->err, "module '%s': not an ELF object with a .modinfo",
			    path.buf);
	}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	strbuf_release(&path);
	return ret;
}

/*
 * Pick m and what it needs: 1 picked (appended to order after its
 * dependencies), 0 left out (it or a dependency not in the tree), -1 err.
 */
static int pick(struct tree *t, struct kmod *m, struct kmod ***order,
		size_t *n, size_t *alloc)
{
	size_t i;

	if (!m || m->state == KMOD_OUT)
		return 0;
	/* picked already, or a cycle (modpost allows none): in hand */
	if (m->state != KMOD_NEW)
		return 1;
	m->state = KMOD_BUSY;
	if (read_deps(t, m) < 0)
		return -1;
	for (i = 0; i < m->ndeps; i++) {
		int r = pick(t, find(t, m->deps[i]), order, n, alloc);

		if (r <= 0) {
			m->state = KMOD_OUT;
			return r;
		}
	}
	m->state = KMOD_OK;
	ALLOC_GROW(*order, *n + 1, *alloc);
	(*order)[(*n)++] = m;
	return 1;
}

/*
 * Everything m needs into line, each module before those it needs (a
 * depth-first walk's order reversed); seen marks those in it already.
 */
static void need_list(struct tree *t, const struct kmod *m, bool *seen,
		      struct kmod **list, size_t *n)
{
	size_t i;

	for (i = 0; i < m->ndeps; i++) {
		struct kmod *d = find(t, m->deps[i]);
		size_t at = (size_t)(d - t->mods);

		if (seen[at])
			continue;
		seen[at] = true;
		need_list(t, d, seen, list, n);
		list[(*n)++] = d;
	}
}

static void dep_lines(struct tree *t, struct kmod **order, size_t n,
		      struct strbuf *dep)
{
	struct kmod **list = xcalloc(t->nmods ? t->nmods : 1, sizeof(*list));
	bool *seen = xcalloc(t->nmods ? t->nmods : 1, sizeof(*seen));
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		memset(seen, 0, t->nmods * sizeof(*seen));
		k = 0;
		need_list(t, order[i], seen, list, &k);
		strbuf_addf(dep, "%s:", order[i]->rel);
		/* the walk put the deepest first: the line wants it last */
		for (j = k; j > 0; j--)
			strbuf_addf(dep, " %s", list[j - 1]->rel);
		strbuf_addch(dep, '\n');
	}
	free(list);
	free(seen);
}

char *vm_modules_beside(const char *image, const char *release)
{
	struct strbuf boot = STRBUF_INIT, root = STRBUF_INIT;
	char *ret = NULL;

	path_dirname(&boot, image);
	if (!strcmp(path_basename(boot.buf), "boot")) {
		path_dirname(&root, boot.buf);
		strbuf_addf(&root, "/lib/modules/%s", release);
		if (dir_exists(root.buf))
			ret = strbuf_detach(&root, NULL);
	}
	strbuf_release(&boot);
	strbuf_release(&root);
	return ret;
}

int vm_modules_pick(const char *dir, struct vm_modset *set, struct strbuf *err)
{
	struct tree t = { dir, NULL, 0, 0, err };
	struct kmod **order = NULL;
	struct strbuf path = STRBUF_INIT;
	size_t i, n = 0, alloc = 0;
	int ret = -1;

	memset(set, 0, sizeof(*set));
	strbuf_init(&set->dep, 0);
	path_join(&path, dir, "kernel");
	if (dir_exists(path.buf) && walk(&t, "kernel") < 0)
		goto out;
	for (i = 0; i < ARRAY_SIZE(vm_modules); i++)
		if (pick(&t, find(&t, vm_modules[i]), &order, &n, &alloc) < 0)
			goto out;
	dep_lines(&t, order, n, &set->dep);
	set->files = xcalloc(n + 1, sizeof(*set->files));
	for (i = 0; i < n; i++)
		set->files[set->nfiles++] = xstrdup(order[i]->rel);
	/* what is built in: modprobe of one of those is no error */
	strbuf_reset(&path);
	path_join(&path, dir, "modules.builtin");
	if (file_exists(path.buf))
		set->files[set->nfiles++] = xstrdup("modules.builtin");
	ret = 0;
out:
	for (i = 0; i < t.nmods; i++) {
		size_t j;

		for (j = 0; j < t.mods[i].ndeps; j++)
			free(t.mods[i].deps[j]);
		free(t.mods[i].deps);
		free(t.mods[i].name);
		free(t.mods[i].rel);
	}
	free(t.mods);
	free(order);
	strbuf_release(&path);
	if (ret < 0)
		vm_modset_release(set);
	return ret;
}

void vm_modset_release(struct vm_modset *set)
{
	size_t i;

	for (i = 0; i < set->nfiles; i++)
		free(set->files[i]);
	free(set->files);
	set->files = NULL;
	set->nfiles = 0;
	strbuf_release(&set->dep);
}
