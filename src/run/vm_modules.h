/*
 * vm_modules.h: the kernel modules a VM run puts into its guest when no
 * --modules DIR is given: those of the package the image came from.  A
 * Debian kernel package unpacked with `dpkg-deb -x` into D has its image
 * at D/boot/vmlinuz-R and its modules at D/lib/modules/R, without the
 * modules.dep the package's postinst makes with depmod.  Of its ~1100
 * modules (91 MB) the guest gets only the virtio drivers and 9p a qemu
 * guest may use (VM_MODULES in vm_modules.c) and what they depend on,
 * read from each module's own `depends=`, with the modules.dep busybox's
 * modprobe reads written for those few (docs/kernel.md).
 */
#ifndef PERFSIFT_VM_MODULES_H
#define PERFSIFT_VM_MODULES_H

#include "util/compat.h"
#include "util/strbuf.h"

/*
 * The package's modules tree beside image (D/lib/modules/<release> for
 * an image D/boot/ANY), when it is a directory: caller frees; NULL when
 * the image lies anywhere else or the tree is missing.
 */
char *vm_modules_beside(const char *image, const char *release);

/* what the guest gets of a modules tree */
struct vm_modset {
	char **files; /* paths relative to the tree, the modules' and modules.builtin */
	size_t nfiles;
	struct strbuf dep; /* the modules.dep text for those modules */
};

/*
 * The modules of VM_MODULES found in tree dir (a .ko below dir/kernel,
 * by module name: `-` and `_` alike) and, recursively, those their
 * `depends=` names; a name the tree lacks (built into the kernel, or no
 * such driver in it) is left out, and so is a module one of whose
 * dependencies is (it could not be loaded).  0, or -1 with err (the tree
 * cannot be read, a module is no ELF file with a .modinfo).
 */
int vm_modules_pick(const char *dir, struct vm_modset *set, struct strbuf *err);
void vm_modset_release(struct vm_modset *set);

#endif
