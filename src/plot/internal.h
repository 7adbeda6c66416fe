/*
 * internal.h: what plot/ascii.c and plot/svg.c share (axis, tics,
 * the x extent); not for other modules, which use plot.h.
 */
#ifndef PERFSIFT_PLOT_INTERNAL_H
#define PERFSIFT_PLOT_INTERNAL_H

#include "util/compat.h"

struct plot;
struct plot_axis;
struct strbuf;

/* check the size, autoscale y over every finite sample, *nx = longest series */
int plot_prepare(const struct plot *p, struct plot_axis *ax, size_t *nx,
		 struct strbuf *err);
/* tic values and their labels from ax->min to ax->max; returns the count */
size_t plot_tic_labels(const struct plot_axis *ax, char ***labels,
		       double **values);
void plot_free_labels(char **labels, double *values, size_t n);

#endif
