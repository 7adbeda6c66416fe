/*
 * machine.c: machine facts and the environment fingerprint (see
 * machine.h).  Everything is read from files under a sysroot so tests can
 * fake a machine; only the host name, uname and the CPU count come from
 * system calls.
 */
#include "util/compat.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "job/job.h"
#include "run/machine.h"
#include "run/vm.h"
#include "util/fileutil.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define SMALL_FILE (1024 * 1024)

static void sys_path(struct strbuf *sb, const char *sysroot, const char *path)
{
	path_join(sb, sysroot && *sysroot ? sysroot : "/", path);
}

/* a trimmed small file under sysroot, or NULL */
static char *read_sys(const char *sysroot, const char *path)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	char *ret = NULL;

	sys_path(&p, sysroot, path);
	if (!read_text_file(&v, p.buf, SMALL_FILE))
		ret = strbuf_detach(&v, NULL);
	strbuf_release(&p);
	strbuf_release(&v);
	return ret;
}

/* the [selected] word of a THP-style file, or "unavailable" */
static char *read_selected(const char *sysroot, const char *path)
{
	char *v = read_sys(sysroot, path);
	char *open_br, *close_br;

	if (!v)
		return xstrdup("unavailable");
	open_br = strchr(v, '[');
	close_br = open_br ? strchr(open_br, ']') : NULL;
	if (open_br && close_br) {
		char *w = xstrndup(open_br + 1, (size_t)(close_br - open_br - 1));

		free(v);
		return w;
	}
	return v;
}

/* value of `key:` (cpuinfo style "key\t: value") in text, or NULL */
static char *colon_value(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		const char *eol = strchrnul(p, '\n');

		if (!strncmp(p, key, klen) && (p[klen] == ' ' || p[klen] == '\t' ||
					       p[klen] == ':')) {
			const char *c = memchr(p, ':', (size_t)(eol - p));

			if (c) {
				c++;
				while (*c == ' ' || *c == '\t')
					c++;
				return xstrndup(c, (size_t)(eol - c));
			}
		}
		p = *eol ? eol + 1 : NULL;
	}
	return NULL;
}

/*
 * LKP's rootfs axis is the distribution: os-release's ID ("debian"), the
 * file systemd and every current distribution ship, /etc first as the
 * standard says, quotes taken off.
 */
static char *os_release_id(const char *sysroot)
{
	static const char *const files[] = {"/etc/os-release",
					    "/usr/lib/os-release"};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char *text = read_sys(sysroot, files[i]);
		const char *p = text;

		while (p && *p) {
			const char *eol = strchrnul(p, '\n');

			if (!strncmp(p, "ID=", 3)) {
				const char *v = p + 3;
				size_t n = (size_t)(eol - v);
				char *id;

				if (n >= 2 && (*v == '"' || *v == '\'') && v[n - 1] == *v) {
					v++;
					n -= 2;
				}
				id = xstrndup(v, n);
				free(text);
				return id;
			}
			p = *eol ? eol + 1 : NULL;
		}
		free(text);
	}
	return xstrdup("unknown");
}

/* LKP's compiler dimension: the name /usr/bin/gcc points at ("gcc-12") */
static char *gcc_name(const char *sysroot)
{
	struct strbuf p = STRBUF_INIT;
	char buf[PATH_MAX];
	ssize_t n;
	char *ret;

	sys_path(&p, sysroot, "/usr/bin/gcc");
	n = readlink(p.buf, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		ret = xstrdup(path_basename(buf));
	} else if (file_exists(p.buf)) {
		ret = xstrdup("gcc"); /* a real file: no version in its name */
	} else {
		ret = xstrdup("unknown");
	}
	strbuf_release(&p);
	return ret;
}

/*
 * The first of the keys architectures use for the model in /proc/cpuinfo:
 * x86's "model name", then MIPS's, ARM's and POWER's spellings, so the
 * report's test box line names a CPU on each.
 */
static char *cpu_model(const char *sysroot)
{
	static const char *const keys[] = {"model name", "cpu model", "Model",
					   "Processor", "cpu"};
	char *text = read_sys(sysroot, "/proc/cpuinfo");
	char *v = NULL;
	size_t i;

	for (i = 0; text && !v && i < ARRAY_SIZE(keys); i++)
		v = colon_value(text, keys[i]);
	free(text);
	return v ? v : xstrdup("unknown");
}

/* FNV-1a 64 of a file: a fingerprint, not a security hash */
static int fnv1a64_file(const char *path, uint64_t *hash)
{
	unsigned char buf[65536];
	uint64_t h = FNV1A64_INIT;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		h = fnv1a64(h, buf, (size_t)n);
	close(fd);
	if (n < 0)
		return -1;
	*hash = h;
	return 0;
}

/*
 * The kernel configuration's fingerprint, recorded with every run: two
 * kernels of one release built with other options measure differently,
 * and the hash is what tells them apart in a comparison.
 */
static char *kconfig_hash(const char *sysroot, const char *release)
{
	struct strbuf p = STRBUF_INIT, boot = STRBUF_INIT;
	uint64_t h;
	char *ret = NULL;

	/* /proc/config.gz is the running kernel's own; /boot/config-R the packaged one */
	sys_path(&p, sysroot, "/proc/config.gz");
	strbuf_addf(&boot, "/boot/config-%s", release);
	if (!fnv1a64_file(p.buf, &h)) {
		ret = xasprintf("fnv1a64:%016" PRIx64 " (config.gz)", h);
	} else {
		sys_path(&p, sysroot, boot.buf);
		if (!fnv1a64_file(p.buf, &h))
			ret = xasprintf("fnv1a64:%016" PRIx64 " (%s)", h, boot.buf);
	}
	strbuf_release(&p);
	strbuf_release(&boot);
	return ret ? ret : xstrdup("unavailable");
}

static uint64_t mem_total(const char *sysroot)
{
	char *text = read_sys(sysroot, "/proc/meminfo");
	char *v = text ? colon_value(text, "MemTotal") : NULL;
	uint64_t kb = 0;

	if (v)
		kb = strtoull(v, NULL, 10);
	free(v);
	free(text);
	return kb * 1024;
}

/* resident pages of this process (the second field of /proc/self/statm) */
static long resident_pages(void)
{
	long size, rss;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &size, &rss) != 2)
		rss = -1;
	fclose(f);
	return rss;
}

/*
 * Does a read fault on private anonymous memory map the shared zero page?
 * It normally does, and vm-scalability's anon-r-* cases measure exactly
 * that; some hypervisor kernels forbid it (PVM's pvm_no_zero_page=1), and
 * then every read fault allocates and clears a page.  Read 64 fresh pages
 * and see whether the resident set grew: the zero page is not counted.
 */
static const char *zero_page_probe(void)
{
	const long pages = 64;
	long page = sysconf(_SC_PAGESIZE), before, after, i;
	volatile const char *p;
	void *map;

	map = mmap(NULL, (size_t)(pages * page), PROT_READ,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return "unknown";
	p = map;
	before = resident_pages();
	for (i = 0; i < pages; i++)
		(void)p[i * page];
	after = resident_pages();
	munmap(map, (size_t)(pages * page));
	if (before < 0 || after < 0)
		return "unknown";
	return after - before >= pages / 2 ? "no" : "yes";
}

/*
 * LKP's tbox_group: the host name without a trailing "-N" ("lkp-skl-2" is
 * of group "lkp-skl"), since identical boxes share their results' path and
 * are compared as one kind of machine; a name without one is its own group.
 */
char *machine_tbox_group(const char *testbox)
{
	const char *dash = strrchr(testbox, '-');
	const char *p;

	if (!dash || !dash[1] || dash == testbox)
		return xstrdup(testbox);
	for (p = dash + 1; *p; p++)
		if (!isdigit((unsigned char)*p))
			return xstrdup(testbox);
	return xstrndup(testbox, (size_t)(dash - testbox));
}

/*
 * The facts a run records about its box, each with a word ("unknown",
 * "unavailable", "none") rather than an empty value when it cannot be
 * read: the run must still be made, and its record must still say what
 * was missing.
 */
void machine_probe(struct machine *m, const char *sysroot)
{
	struct utsname u;
	char host[256];
	long n;
	double gib;

	memset(m, 0, sizeof(*m));
	if (gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	m->testbox = xstrdup(host);
	m->tbox_group = machine_tbox_group(host);
	if (uname(&u) == 0) {
		m->arch = xstrdup(u.machine);
		m->kernel_release = xstrdup(u.release);
	} else {
		m->arch = xstrdup("unknown");
		m->kernel_release = xstrdup("unknown");
	}
	m->rootfs = os_release_id(sysroot);
	/*
	 * In a VM's guest (run/vm.h) there is no gcc: the compiler axis is
	 * the kernel's own, as /proc/version says it.
	 */
	if (vm_in_guest()) {
		char *v = read_sys(sysroot, "/proc/version");

		m->compiler = vm_banner_compiler(v);
		free(v);
	} else {
		m->compiler = gcc_name(sysroot);
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	m->nr_cpu = n > 0 ? (unsigned)n : 1;
	m->mem_total = mem_total(sysroot);
	gib = (double)m->mem_total / (1024.0 * 1024 * 1024);
	if (gib >= 1)
		m->memory = xasprintf("%.0fG", gib);
	else
		m->memory = xasprintf("%.0fM", gib * 1024);
	m->cpu_model = cpu_model(sysroot);
	m->cmdline = read_sys(sysroot, "/proc/cmdline");
	if (!m->cmdline)
		m->cmdline = xstrdup("unknown");
	m->thp_enabled = read_selected(sysroot,
				       "/sys/kernel/mm/transparent_hugepage/enabled");
	m->thp_defrag = read_selected(sysroot,
				      "/sys/kernel/mm/transparent_hugepage/defrag");
	m->governor = read_sys(sysroot,
			       "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	if (!m->governor)
		m->governor = xstrdup("none");
	m->kconfig_hash = kconfig_hash(sysroot, m->kernel_release);
	/* a property of the running kernel, not of a file: only probed live */
	m->zero_page = !sysroot || !*sysroot || strcmp(sysroot, "/") == 0 ?
		zero_page_probe() : "unknown";
}

void machine_release(struct machine *m)
{
	free(m->testbox);
	free(m->tbox_group);
	free(m->arch);
	free(m->kernel_release);
	free(m->rootfs);
	free(m->compiler);
	free(m->memory);
	free(m->cpu_model);
	free(m->cmdline);
	free(m->thp_enabled);
	free(m->thp_defrag);
	free(m->governor);
	free(m->kconfig_hash);
	memset(m, 0, sizeof(*m));
}

/*
 * The facts into the job as LKP's keys, so they reach job.yaml, the
 * result path and the index as LKP's runs have them: what the job sets
 * itself (testbox, tbox_group, arch, kconfig, commit) is kept; what the
 * machine is (rootfs, compiler, CPUs, memory, the env_* settings) is
 * always the machine's, so a job cannot record a box it did not run on.
 */
void machine_fill_job(const struct machine *m, struct job *job,
		      const char *commit)
{
	char num[32];

	if (!job_get(job, "testbox"))
		job_set(job, "testbox", m->testbox);
	if (!job_get(job, "tbox_group")) {
		char *g = machine_tbox_group(job_get(job, "testbox"));

		job_set(job, "tbox_group", g);
		free(g);
	}
	if (!job_get(job, "arch"))
		job_set(job, "arch", m->arch);
	if (!job_get(job, "kconfig"))
		job_set(job, "kconfig", "defconfig");
	if (commit)
		job_set(job, "commit", commit);
	else if (!job_get(job, "commit"))
		job_set(job, "commit", m->kernel_release);
	job_set(job, "rootfs", m->rootfs);
	job_set(job, "compiler", m->compiler);
	snprintf(num, sizeof(num), "%u", m->nr_cpu);
	job_set(job, "nr_cpu", num);
	job_set(job, "memory", m->memory);
	job_set(job, "model", m->cpu_model);
	job_set(job, "env_kernel_cmdline", m->cmdline);
	job_set(job, "env_thp_enabled", m->thp_enabled);
	job_set(job, "env_thp_defrag", m->thp_defrag);
	job_set(job, "env_cpufreq_governor", m->governor);
	job_set(job, "env_kconfig_hash", m->kconfig_hash);
	job_set(job, "env_zero_page", m->zero_page);
}
