/*
 * vm.h: a run on a kernel under test (`perfsift run JOB --kernel IMAGE`,
 * or the job's LKP key `kernel:`).  The kernel is booted in qemu with an
 * initramfs perfsift builds (its own binary and libraries, busybox, the
 * atomic job), perfsift's own engine makes the run inside the guest --
 * knobs, monitors and benchmark all the guest's -- and the run comes back
 * over a second serial port (ttyS1) as a tar stream.  The host then
 * stores it in its result root as a native run, with the console (ttyS0)
 * as the run's `dmesg`.  A panic, an oops, a hang (the job's runtime plus
 * a margin) or a boot that never reaches the job is a failed run whose
 * last_state says why (docs/kernel.md).
 */
#ifndef PERFSIFT_VM_H
#define PERFSIFT_VM_H

#include "util/compat.h"
#include "run/engine.h"
#include "util/strbuf.h"

struct job;

/* the VM's shape: `run`'s --kernel, --modules, --vm-cpus, --vm-memory, --append */
struct vm_opts {
	const char *image;   /* the kernel; NULL: only jobs naming `kernel:` boot one */
	/* a lib/modules/<release> tree packed into the guest whole; NULL: a
	 * few from beside the image, if any (vm_modules.h) */
	const char *modules;
	unsigned cpus;       /* 0: 2 */
	uint64_t memory;     /* bytes; 0: 2 GiB */
	const char *append;  /* more of the kernel command line, or NULL */
};

/* what the image's setup header says of the kernel */
struct vm_image {
	char *release; /* "6.1.0-47-cloud-amd64" (uname -r) */
	char *banner;  /* the header's version text */
	unsigned cmdline_max; /* the longest command line it takes, in bytes */
};

/*
 * Whether path is a bootable x86 kernel (a bzImage's setup header: every
 * distribution vmlinuz is one); fills info when not NULL.  -1 with err
 * "PATH: not a Linux kernel image ..." or "PATH: cannot open ...".
 */
int vm_image_check(const char *path, struct vm_image *info, struct strbuf *err);
void vm_image_release(struct vm_image *info);

/*
 * Whether the guest's command line with append (NULL: none) fits the
 * image's cmdline_size; -1 with err when not.  A longer one was cut by
 * the boot loader and the guest hung until the VM's time limit
 * (docs/attack-5.md, A1).
 */
int vm_cmdline_check(const struct vm_image *info, const char *append,
		     struct strbuf *err);

/*
 * The compiler a kernel was built with, from its version banner as
 * /proc/version shows it ("Linux version R (who) (gcc-12 (Debian ...)
 * 12.2.0, GNU ld ...) #1 ..."): "gcc-12", "clang-14"; "unknown" when
 * the text says none.  Caller frees.  The guest's machine facts and a
 * failed boot's run (from the image's own banner) name the compiler
 * axis alike, so both land in one group.
 */
char *vm_banner_compiler(const char *banner);
/*
 * The same name from a kernel config's CONFIG_CC_VERSION_TEXT (kernels
 * since 5.8 write the compiler's --version line there), or NULL: for a
 * failed boot whose image's banner cannot be read.  Caller frees.
 */
char *vm_config_compiler(const char *config);

/*
 * The image's own banner (`Linux version RELEASE (...`, as /proc/version
 * will say it) from its compressed payload, for the compiler axis of a
 * run whose guest never said it (a failed boot); workdir takes the
 * payload a moment.  NULL when it cannot be read.  Caller frees.
 */
char *vm_image_banner(const char *path, const char *release,
		      const char *workdir);

/* true inside a perfsift guest (the initramfs's init sets it) */
bool vm_in_guest(void);

/*
 * The kernel image this atomic job boots: the engine's --kernel, else
 * the job's `kernel:`; NULL for a native run (and always in a guest).
 */
const char *vm_image_of(const struct engine *e, const struct job *atomic);

/*
 * engine_run_once() for a run in a VM, called by it once r is reset and
 * no stop was requested: the same contract and outcomes (engine.h), with
 * the guest's engine doing the run.
 */
enum engine_outcome vm_run_once(struct engine *e, const char *image,
				const struct job *atomic,
				const struct engine_plan *p,
				struct engine_run *r);

#endif
