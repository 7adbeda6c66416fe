/*
 * lkp_cluster.c: LKP's `cluster:` and `if role ROLE:` (lkp_cluster.h).  A
 * job naming a cluster file of the LKP checkout in use whose one host
 * holds several roles (LKP's cluster/cs-localhost: localhost with the
 * roles [server, client]) is every role on this box: each `if role R:`
 * mapping that host holds is merged into the job where it stands, as
 * LKP's job.rb does for a host with that role, so that the server role's
 * daemon and the client role's benchmark are one job here.  A cluster of
 * several hosts needs several machines: refused, naming them.
 */
#include "util/compat.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "job/internal.h"
#include "job/lkp_cluster.h"
#include "job/plugins.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define ROLE_PREFIX "if role "

/* the key is `if role ROLE` (LKP writes the role after one blank) */
static const char *role_of(const char *key)
{
	return strncmp(key, ROLE_PREFIX, strlen(ROLE_PREFIX)) ? NULL :
								 key + strlen(ROLE_PREFIX);
}

/* roles is a list of scalars (or one scalar) naming role */
static bool has_role(const struct jnode *roles, const char *role)
{
	size_t i;

	if (roles && roles->type == JNODE_SCALAR)
		return !strcmp(roles->text, role);
	for (i = 0; roles && roles->type == JNODE_SEQ && i < roles->n; i++)
		if (roles->kids[i]->type == JNODE_SCALAR &&
		    !strcmp(roles->kids[i]->text, role))
			return true;
	return false;
}

/*
 * The one host's roles of cluster file `name` (LKP: $LKP_SRC/cluster/NAME,
 * a mapping of hosts, each with `roles:`), as a copy owned by the caller;
 * NULL with err set when there is no such file or it has several hosts.
 */
static struct jnode *host_roles(const char *file, const struct jnode *cluster,
				struct strbuf *err)
{
	const char *lkp = plugin_lkp_src();
	struct strbuf path = STRBUF_INIT, hosts = STRBUF_INIT, why = STRBUF_INIT;
	struct job **cj = NULL;
	size_t ncj = 0, i;
	struct jnode *roles = NULL;
	const struct jnode *root;

	if (!lkp) {
		job_err_at(err, file, cluster->line, "cluster",
			   "'%s' is a cluster file of an LKP checkout, and none is in use "
			   "(--lkp-src DIR or $LKP_SRC)", cluster->text);
		goto out;
	}
	strbuf_addf(&path, "%s/cluster/%s", lkp, cluster->text);
	if (strchr(cluster->text, '/') || !file_exists(path.buf)) {
		job_err_at(err, file, cluster->line, "cluster", "no cluster file %s",
			   path.buf);
		goto out;
	}
	if (job_read_file(path.buf, &cj, &ncj, &why) < 0 || !ncj) {
		job_err_at(err, file, cluster->line, "cluster", "%s", why.buf);
		goto out;
	}
	root = cj[0]->root;
	for (i = 0; i < root->n; i++)
		if (root->kids[i]->type == JNODE_MAP && jnode_get(root->kids[i], "roles"))
			strbuf_addf(&hosts, "%s%s", hosts.len ? ", " : "", root->keys[i]);
	if (root->n != 1 || root->kids[0]->type != JNODE_MAP ||
	    !jnode_get(root->kids[0], "roles")) {
		job_err_at(err, file, cluster->line, "cluster",
			   "%s has %zu hosts (%s): perfsift runs a cluster on this one box "
			   "only, as one host holding every role (LKP's cs-localhost); "
			   "run each role's job on its own machine",
			   path.buf, root->n, hosts.len ? hosts.buf : "none with roles:");
		goto out;
	}
	roles = jnode_dup(jnode_get(root->kids[0], "roles"), file);
out:
	job_free_all(cj, ncj);
	strbuf_release(&path);
	strbuf_release(&hosts);
	strbuf_release(&why);
	return roles;
}

int lkp_cluster_expand(const char *file, struct jnode *root,
		       const struct jnode *doc0, struct strbuf *err)
{
	const struct jnode *cluster = jnode_get(root, "cluster");
	struct jnode *roles, *out;
	size_t i, j;
	bool any = false;

	for (i = 0; i < root->n && !any; i++)
		any = role_of(root->keys[i]) != NULL;
	if (!any)
		return 0;
	if (!cluster && doc0)
		cluster = jnode_get(doc0, "cluster");
	if (!cluster || cluster->type != JNODE_SCALAR) {
		for (i = 0; !role_of(root->keys[i]); i++)
			;
		job_err_at(err, file, root->kids[i]->line, root->keys[i],
			   "a role needs `cluster:` naming the cluster file whose hosts "
			   "hold the roles (LKP's cluster/cs-localhost)");
		return -1;
	}
	roles = host_roles(file, cluster, err);
	if (!roles)
		return -1;
	/* first the checks, so that nothing is moved when the job is refused */
	for (i = 0; i < root->n; i++) {
		const char *role = role_of(root->keys[i]);
		const struct jnode *v = root->kids[i];

		if (!role || !has_role(roles, role))
			continue;
		if (v->type != JNODE_MAP && v->type != JNODE_NULL) {
			job_err_at(err, file, v->line, root->keys[i],
				   "expected a mapping of the role's programs");
			goto fail;
		}
		for (j = 0; v->type == JNODE_MAP && j < v->n; j++) {
			size_t k;
			bool twice = jnode_index(root, v->keys[j]) >= 0;

			/* ... nor in another held role's mapping */
			for (k = 0; k < i && !twice; k++)
				twice = role_of(root->keys[k]) &&
					has_role(roles, role_of(root->keys[k])) &&
					jnode_index(root->kids[k], v->keys[j]) >= 0;
			if (twice) {
				job_err_at(err, file, v->kids[j]->line, v->keys[j],
					   "given twice: in `%s` and elsewhere in the job",
					   root->keys[i]);
				goto fail;
			}
		}
	}
	/* rebuilt in order: each held role's keys where its `if role` stood */
	out = jnode_new(JNODE_MAP, root->file, root->line);
	for (i = 0; i < root->n; i++) {
		const char *role = role_of(root->keys[i]);
		struct jnode *v = root->kids[i];

		if (!role) {
			jnode_append(out, root->keys[i], v);
			continue;
		}
		for (j = 0; has_role(roles, role) && v->type == JNODE_MAP && j < v->n; j++) {
			jnode_append(out, v->keys[j], v->kids[j]);
			v->kids[j] = NULL;
		}
		jnode_free(v); /* a role this host has not: LKP leaves it out */
		root->kids[i] = NULL;
	}
	/* out now owns every kept node: root takes its arrays */
	for (i = 0; i < root->n; i++)
		free(root->keys[i]);
	free(root->keys);
	free(root->kids);
	root->keys = out->keys;
	root->kids = out->kids;
	root->n = out->n;
	root->alloc = out->alloc;
	out->keys = NULL;
	out->kids = NULL;
	out->n = 0;
	jnode_free(out);
	jnode_free(roles);
	return 0;
fail:
	jnode_free(roles);
	return -1;
}
