/*
 * pq_lazy.h: libpq, loaded on first use (util/dynlib.c says why).  pg.c
 * includes this after <libpq-fe.h> and calls pq_lazy_load() before its
 * first PQ call; the PQ names then go through the loaded table.
 */
#ifndef PERFSIFT_PQ_LAZY_H
#define PERFSIFT_PQ_LAZY_H

#include <libpq-fe.h>
#include "util/strbuf.h"

/* every libpq function perfsift calls */
#define PQ_LAZY_FUNCS(X) \
	X(PQconnectdb) X(PQstatus) X(PQerrorMessage) X(PQfinish) \
	X(PQexec) X(PQexecParams) X(PQresultStatus) \
	X(PQresultErrorMessage) X(PQclear) X(PQntuples) X(PQgetvalue) \
	X(PQgetlength) X(PQgetisnull) \
	X(PQsocket) X(PQconsumeInput) X(PQnotifies) X(PQfreemem) \
	X(PQsetNoticeProcessor)

struct pq_lazy_api {
#define PQ_LAZY_MEMBER(f) __typeof__(f) *f;
	PQ_LAZY_FUNCS(PQ_LAZY_MEMBER)
#undef PQ_LAZY_MEMBER
};

/* 0 once libpq is loaded; -1 with err ("the PostgreSQL store needs ...") */
int pq_lazy_load(struct strbuf *err);
/* the table; BUG() before a successful pq_lazy_load() */
const struct pq_lazy_api *pq_lazy_api(void);

#ifndef PQ_LAZY_IMPL
#define PQconnectdb (pq_lazy_api()->PQconnectdb)
#define PQstatus (pq_lazy_api()->PQstatus)
#define PQerrorMessage (pq_lazy_api()->PQerrorMessage)
#define PQfinish (pq_lazy_api()->PQfinish)
#define PQexec (pq_lazy_api()->PQexec)
#define PQexecParams (pq_lazy_api()->PQexecParams)
#define PQresultStatus (pq_lazy_api()->PQresultStatus)
#define PQresultErrorMessage (pq_lazy_api()->PQresultErrorMessage)
#define PQclear (pq_lazy_api()->PQclear)
#define PQntuples (pq_lazy_api()->PQntuples)
#define PQgetvalue (pq_lazy_api()->PQgetvalue)
#define PQgetlength (pq_lazy_api()->PQgetlength)
#define PQgetisnull (pq_lazy_api()->PQgetisnull)
/* the lab's queue (src/lab/): LISTEN/NOTIFY, and quiet notices */
#define PQsocket (pq_lazy_api()->PQsocket)
#define PQconsumeInput (pq_lazy_api()->PQconsumeInput)
#define PQnotifies (pq_lazy_api()->PQnotifies)
#define PQfreemem (pq_lazy_api()->PQfreemem)
#define PQsetNoticeProcessor (pq_lazy_api()->PQsetNoticeProcessor)
#endif

#endif
