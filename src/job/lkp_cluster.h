/*
 * lkp_cluster.h: LKP's `cluster: NAME` and `if role ROLE:` keys, for a
 * cluster file whose one host holds every role (lkp_cluster.c).
 */
#ifndef PERFSIFT_LKP_CLUSTER_H
#define PERFSIFT_LKP_CLUSTER_H

struct jnode;
struct strbuf;

/*
 * A document (root) with `if role ROLE:` keys: each role the cluster's
 * one host holds has its mapping's keys put where it stood, the others
 * are dropped.  `cluster:` is the document's, else doc0's (NULL: none).
 * 0 (also when there is no role), or -1 with err as FILE:LINE: KEY: --
 * no cluster named, no such file in the LKP checkout, several hosts --
 * and root unchanged.
 */
int lkp_cluster_expand(const char *file, struct jnode *root,
		       const struct jnode *doc0, struct strbuf *err);

#endif
