/*
 * usersym.c: user-space addresses to function names for the perf-profile
 * sampler (usersym.h): the processes' mappings as the kernel reported
 * them, and each mapped ELF file's functions read once with libelf.
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "monitors/sampling.h"
#include "monitors/usersym.h"
#include "util/sorted.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * The bookkeeping is the one perf itself keeps, in small: a mapping is
 * (pid, address range, file offset, inode) valid from the time of its
 * mmap event until its process exec()s; a file is read at most once, when
 * a sample first falls in it, because most mapped files (every shared
 * library of every process) are never sampled at all.
 */
struct usersym_fn {
	uint64_t addr, size; /* size 0: to the next function */
	char *name;
};

struct usersym_seg {
	uint64_t offset, filesz, vaddr;
};

struct usersym_file {
	char *path;
	uint64_t ino;
	bool loaded, ok;
	struct usersym_fn *fns; /* by addr */
	size_t nfns;
	struct usersym_seg *segs; /* the PT_LOAD segments */
	size_t nsegs;
};

void usersym_init(struct usersym *u)
{
	memset(u, 0, sizeof(*u));
}

void usersym_release(struct usersym *u)
{
	size_t i, j;

	for (i = 0; i < u->nfiles; i++) {
		for (j = 0; j < u->files[i].nfns; j++)
			free(u->files[i].fns[j].name);
		free(u->files[i].fns);
		free(u->files[i].segs);
		free(u->files[i].path);
	}
	free(u->files);
	free(u->maps);
	free(u->forks);
	free(u->proc_read);
	memset(u, 0, sizeof(*u));
}

/*
 * the file's slot (one per path and inode: a rebuilt binary is another)
 *
 * (A benchmark rebuilt during a run, or a library upgraded under it, must
 * not be resolved by the new file's symbols: the addresses are the old's.)
 */
static size_t file_slot(struct usersym *u, const char *path, uint64_t ino)
{
	size_t i;

	for (i = 0; i < u->nfiles; i++)
		if (u->files[i].ino == ino && !strcmp(u->files[i].path, path))
			return i;
	ALLOC_GROW(u->files, u->nfiles + 1, u->alloc_files);
	memset(&u->files[u->nfiles], 0, sizeof(u->files[0]));
	u->files[u->nfiles].path = xstrdup(path);
	u->files[u->nfiles].ino = ino;
	return u->nfiles++;
}

void usersym_mmap(struct usersym *u, uint32_t pid, uint64_t start,
		  uint64_t len, uint64_t pgoff, uint64_t ino, uint64_t t,
		  const char *file)
{
	struct usersym_map *m;

	/* anonymous memory, [heap], [vdso], //anon: no file to read */
	if (!file || file[0] != '/' || !len)
		return;
	ALLOC_GROW(u->maps, u->nmaps + 1, u->alloc_maps);
	m = &u->maps[u->nmaps++];
	m->pid = pid;
	m->start = start;
	m->end = start + len;
	m->pgoff = pgoff;
	m->ino = ino;
	m->t0 = t;
	m->t1 = UINT64_MAX;
	m->file = file_slot(u, file, ino);
}

/*
 * A fork copies the parent's mappings without mmap events of its own, so
 * the child is resolved through its parent until it exec()s.
 */
void usersym_fork(struct usersym *u, uint32_t pid, uint32_t ppid, uint64_t t)
{
	if (pid == ppid)
		return;
	ALLOC_GROW(u->forks, u->nforks + 1, u->alloc_forks);
	u->forks[u->nforks].pid = pid;
	u->forks[u->nforks].ppid = ppid;
	u->forks[u->nforks].t = t;
	u->nforks++;
}

/* an exec ends every mapping the process had: the new image maps its own */
void usersym_exec(struct usersym *u, uint32_t pid, uint64_t t)
{
	size_t i;

	for (i = 0; i < u->nmaps; i++)
		if (u->maps[i].pid == pid && u->maps[i].t1 == UINT64_MAX &&
		    u->maps[i].t0 <= t)
			u->maps[i].t1 = t;
	/* after an exec the forked parent's mappings are not the child's */
	for (i = 0; i < u->nforks; i++)
		if (u->forks[i].pid == pid && u->forks[i].t <= t)
			u->forks[i].ppid = 0;
}

static bool known_pid(const struct usersym *u, uint32_t pid)
{
	size_t i;

	for (i = 0; i < u->nmaps; i++)
		if (u->maps[i].pid == pid)
			return true;
	for (i = 0; i < u->nforks; i++)
		if (u->forks[i].pid == pid)
			return true;
	for (i = 0; i < u->nproc_read; i++)
		if (u->proc_read[i] == pid)
			return true;
	return false;
}

/*
 * A process that existed before the sampler started has had no mmap
 * events: its mappings are read once from /proc/PID/maps (the executable
 * ones only, since only code is sampled).  False when the process is
 * gone already -- its samples then stay unresolved, which is all that
 * can be said about them.
 */
bool usersym_need_proc(struct usersym *u, const char *sysroot, uint32_t pid)
{
	struct strbuf path = STRBUF_INIT, line = STRBUF_INIT;
	char rel[64];
	FILE *fp;

	if (known_pid(u, pid))
		return true;
	ALLOC_GROW(u->proc_read, u->nproc_read + 1, u->alloc_proc_read);
	u->proc_read[u->nproc_read++] = pid;
	snprintf(rel, sizeof(rel), "proc/%" PRIu32 "/maps", pid);
	mon_path(&path, sysroot, rel);
	fp = fopen(path.buf, "re");
	strbuf_release(&path);
	if (!fp)
		return false; /* gone already */
	/* START-END PERMS OFFSET DEV INODE PATH */
	while (strbuf_getline(&line, fp) != EOF) {
		unsigned long long start, end, off, ino;
		char perms[8];
		int name_at = 0;

		if (sscanf(line.buf, "%llx-%llx %7s %llx %*s %llu %n", &start,
			   &end, perms, &off, &ino, &name_at) < 5 || !name_at ||
		    !strchr(perms, 'x'))
			continue;
		usersym_mmap(u, pid, start, end - start, off, ino, 0,
			     line.buf + name_at);
	}
	fclose(fp);
	strbuf_release(&line);
	return true;
}

static int cmp_fn(const void *a, const void *b)
{
	const struct usersym_fn *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/*
 * the functions of one symbol table section
 *
 * (Functions only, and IFUNC resolvers with them: a sample's address is
 * in code, and an object symbol covering it would name data.)
 */
static void read_syms(struct usersym_file *f, Elf *elf, Elf_Scn *scn,
		      const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n, alloc = f->nfns;

	if (!data || !sh->sh_entsize)
		return;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_value)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		ALLOC_GROW(f->fns, f->nfns + 1, alloc);
		f->fns[f->nfns].addr = sym.st_value;
		f->fns[f->nfns].size = sym.st_size;
		f->fns[f->nfns].name = xstrdup(name);
		f->nfns++;
	}
}

/*
 * Read the file's PT_LOAD segments and functions (.symtab, else the
 * .dynsym a stripped file keeps), once.  A file replaced since it was
 * mapped (another inode) is left unread.
 */
static void load_file(struct usersym_file *f)
{
	Elf_Scn *scn = NULL, *dynsym = NULL;
	GElf_Shdr sh, dynsh;
	GElf_Ehdr eh;
	struct stat st;
	size_t i, nph, alloc = 0;
	bool have_symtab = false;
	Elf *elf;
	int fd;

	f->loaded = true;
	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || (f->ino && (uint64_t)st.st_ino != f->ino) ||
	    elf_version(EV_CURRENT) == EV_NONE) {
		close(fd);
		return;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    elf_getphdrnum(elf, &nph)) {
		if (elf)
			elf_end(elf);
		close(fd);
		return;
	}
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		ALLOC_GROW(f->segs, f->nsegs + 1, alloc);
		f->segs[f->nsegs].offset = ph.p_offset;
		f->segs[f->nsegs].filesz = ph.p_filesz;
		f->segs[f->nsegs].vaddr = ph.p_vaddr;
		f->nsegs++;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			read_syms(f, elf, scn, &sh);
			have_symtab = true;
		} else if (sh.sh_type == SHT_DYNSYM) {
			dynsym = scn;
			dynsh = sh;
		}
	}
	if (!have_symtab && dynsym)
		read_syms(f, elf, dynsym, &dynsh);
	elf_end(elf);
	close(fd);
	if (f->nfns)
		qsort(f->fns, f->nfns, sizeof(*f->fns), cmp_fn);
	f->ok = true;
}

/* "elem sorts before key": the function starts at or before the address */
static int cmp_fn_addr(const void *key, const void *elem)
{
	return ((const struct usersym_fn *)elem)->addr <= *(const uint64_t *)key ?
	       1 : -1;
}

/*
 * the function containing the file's virtual address, or NULL
 *
 * off is a file offset (the mapping's pgoff plus the address within it);
 * the symbols are by virtual address, so the PT_LOAD segment holding off
 * converts one to the other -- the only conversion that holds for PIE
 * executables and shared libraries alike.
 */
static const char *file_symbol(struct usersym_file *f, uint64_t off)
{
	const struct usersym_fn *fn;
	uint64_t vaddr = 0;
	size_t i, after;
	bool in_seg = false;

	if (!f->loaded)
		load_file(f);
	if (!f->ok)
		return NULL;
	for (i = 0; i < f->nsegs && !in_seg; i++)
		if (off >= f->segs[i].offset &&
		    off < f->segs[i].offset + f->segs[i].filesz) {
			vaddr = off - f->segs[i].offset + f->segs[i].vaddr;
			in_seg = true;
		}
	if (!in_seg || !f->nfns)
		return NULL;
	after = sorted_lower_bound(&vaddr, f->fns, f->nfns, sizeof(*f->fns),
				   cmp_fn_addr);
	if (!after)
		return NULL;
	fn = &f->fns[after - 1];
	if (fn->size && vaddr >= fn->addr + fn->size)
		return NULL; /* between functions (padding, a stub) */
	return fn->name;
}

/*
 * the newest mapping of pid covering ip at t, or NULL
 *
 * The newest one, because an address range can be mapped again (dlopen,
 * a JIT's reused region); t 0 means "any time", for callers without one.
 */
static const struct usersym_map *find_map(const struct usersym *u,
					  uint32_t pid, uint64_t ip, uint64_t t)
{
	const struct usersym_map *best = NULL;
	size_t i;

	for (i = 0; i < u->nmaps; i++) {
		const struct usersym_map *m = &u->maps[i];

		if (m->pid != pid || ip < m->start || ip >= m->end)
			continue;
		if (t && (t < m->t0 || t >= m->t1))
			continue;
		if (!best || m->t0 >= best->t0)
			best = m;
	}
	return best;
}

const char *usersym_resolve(struct usersym *u, uint32_t pid, uint64_t ip,
			    uint64_t t, const char **dso)
{
	const struct usersym_map *m = find_map(u, pid, ip, t);
	size_t i, hops;

	/* a forked child that has not exec'd runs its parent's mappings */
	for (hops = 0; !m && hops < 8; hops++) {
		for (i = u->nforks; i-- > 0;)
			if (u->forks[i].pid == pid && u->forks[i].ppid)
				break;
		if (i == (size_t)-1)
			break;
		pid = u->forks[i].ppid;
		t = t ? u->forks[i].t : 0;
		m = find_map(u, pid, ip, t);
	}
	if (!m) {
		*dso = NULL;
		return NULL;
	}
	*dso = u->files[m->file].path;
	return file_symbol(&u->files[m->file], ip - m->start + m->pgoff);
}
