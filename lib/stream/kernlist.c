/* See LICENSE file for copyright and license details. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "stream/kernlist.h"

void
tl_kernlist_init(struct tl_kernlist *k)
{
	memset(k, 0, sizeof(*k));
	tl_json_init(&k->j);
}

void
tl_kernlist_free(struct tl_kernlist *k)
{
	free(k->v);
	free(k->names);
	tl_json_free(&k->j);
	tl_kernlist_init(k);
}

/* The events' names where the names buffer ended up. */
static void
place_names(struct tl_kernlist *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		k->v[i].name = k->names + k->v[i].nameat;
}

/* An integer member's text (NULL absent): its value, -1 when none. */
static int64_t
count(const char *v, size_t n)
{
	int64_t x;

	return v != NULL && tl_parse_i64(v, n, &x) == 0 && x > 0 ? x : -1;
}

/*
 * Add the event whose members name, ts, dur, launch_ts, grid and block
 * have the texts v[0..NKEY) of lengths n[0..NKEY) (NULL when absent), its
 * name unescaped when unescape, after the names at *used: 0, or -1
 * (nothing added) when ts or dur is not a time or dur is below 0.
 */
static int
add_item(struct tl_kernlist *k, size_t *used, const char *const *v,
    const size_t *n, int unescape)
{
	struct tl_kitem *it;

	tl_grow(&k->v, &k->cap, k->n + 1, sizeof(*k->v));
	it = &k->v[k->n];
	if (tl_parse_us_ns(v[1], n[1], &it->ts) < 0 ||
	    tl_parse_us_ns(v[2], n[2], &it->dur) < 0 || it->dur < 0)
		return -1;
	it->launch = -1;
	it->launch_bad = v[3] != NULL &&
	    tl_parse_us_ns(v[3], n[3], &it->launch) < 0;
	it->grid = count(v[4], n[4]);
	it->block = count(v[5], n[5]);
	/* The name after the ones before it (place_names points at it). */
	tl_grow(&k->names, &k->namecap, *used + n[0] + 1, 1);
	it->nameat = *used;
	if (unescape)
		it->namelen = tl_json_unescape(k->names + *used, v[0], n[0]);
	else {
		memcpy(k->names + *used, v[0], n[0]);
		it->namelen = n[0];
	}
	k->names[*used + it->namelen] = '\0';
	*used += it->namelen + 1;
	k->n++;
	return 0;
}

/* The members of an event read: name, ts, dur, launch_ts, grid, block. */
#define NKEY 6

/* The member of an event that a key names, -1 none of them. */
static int
event_key(const char *s, size_t n)
{
	switch (n) {
	case 2: return memcmp(s, "ts", 2) == 0 ? 1 : -1;
	case 3: return memcmp(s, "dur", 3) == 0 ? 2 : -1;
	case 4: return memcmp(s, "name", 4) == 0 ? 0 :
	    memcmp(s, "grid", 4) == 0 ? 4 : -1;
	case 5: return memcmp(s, "block", 5) == 0 ? 5 : -1;
	case 9: return memcmp(s, "launch_ts", 9) == 0 ? 3 : -1;
	}
	return -1;
}

/*
 * Byte classes: KEYB a key's byte as tl-parse writes keys (a lowercase
 * letter, '_'); PRIMB a byte of a number or a literal, as jsmn's strict
 * mode reads them (a letter, a digit, '-', '+', '.').
 */
enum { KEYB = 1, PRIMB = 2 };
static const unsigned char bytecls[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 2, 0,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0,
	0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 1,
	0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};
#define IS(c, k) ((bytecls[(unsigned char)(c)] & (k)) != 0)

/* The keys of an event in the order tl-parse writes them. */
#define NORDER 9

/*
 * 1 if the key (with its quotes and colon) at p, with room bytes before
 * the text's end, is the one tl-parse writes as the event's j-th: the
 * one compare of constant length each (no loop over its bytes) that the
 * key loop below would read as that key.  *m is its member, its length
 * *n.
 */
static int
next_key(const char *p, size_t room, int j, int *m, size_t *n)
{
#define KEY(lit, member) \
	if (room < sizeof(lit) - 1 || memcmp(p, lit, sizeof(lit) - 1) != 0) \
		return 0; \
	*m = member; \
	*n = sizeof(lit) - 1; \
	return 1
	switch (j) {
	case 0: KEY("\"uid\":", -1);
	case 1: KEY("\"name\":", 0);
	case 2: KEY("\"pid\":", -1);
	case 3: KEY("\"stream\":", -1);
	case 4: KEY("\"ts\":", 1);
	case 5: KEY("\"dur\":", 2);
	case 6: KEY("\"launch_ts\":", 3);
	case 7: KEY("\"grid\":", 4);
	case 8: KEY("\"block\":", 5);
	}
	return 0;
#undef KEY
}

/*
 * The list as tl-parse writes it, read without tokenising: compact (no
 * blanks), keys of lowercase letters and '_', strings without escapes,
 * numbers and literals of plain bytes, no nesting inside an event, and
 * every event whole with its name a string and its times numbers.  jsmn
 * tokenises such text into the same values, so this finds what the
 * tokenising path finds; any other text (a list with a bad event among
 * it) it leaves to that path: 0 when read, -1 when not.
 */
static int
read_plain(struct tl_kernlist *k, const char *s, size_t len)
{
	const char *p = s, *end = s + len;
	size_t used = 0;

	if (*p++ != '[')
		return -1;
	if (*p == ']')
		return p[1] == '\0' ? 0 : -1;
	for (;;) {
		const char *v[NKEY] = { NULL };
		size_t vn[NKEY] = { 0 };
		int str[NKEY] = { 0 };
		int j = 0;	/* the key tl-parse writes next */

		if (*p++ != '{')
			return -1;
		for (;;) {
			const char *key = p + 1, *val;
			int m, isstr;
			size_t kn;

			if (j < NORDER && next_key(p, (size_t)(end - p), j, &m,
			    &kn)) {
				p += kn;
				j++;
			} else {
				j = NORDER;	/* another order: key by key */
				if (*p++ != '"')
					return -1;
				while (IS(*p, KEYB))
					p++;
				if (*p != '"' || p == key || p[1] != ':')
					return -1;
				m = event_key(key, (size_t)(p - key));
				p += 2;
			}
			if ((isstr = *p == '"')) {
				val = ++p;
				p += strcspn(p, "\"\\");
				if (*p != '"')
					return -1;
			} else {
				if (!(*p == '-' || (*p >= '0' && *p <= '9') ||
				    *p == 't' || *p == 'f' || *p == 'n'))
					return -1;
				for (val = p; IS(*p, PRIMB); p++)
					;
			}
			if (m >= 0 && v[m] == NULL) {
				v[m] = val;
				vn[m] = (size_t)(p - val);
				str[m] = isstr;
			}
			p += isstr;
			if (*p == ',')
				p++;
			else if (*p++ == '}')
				break;
			else
				return -1;
		}
		if (v[0] == NULL || !str[0] || v[1] == NULL || str[1] ||
		    v[2] == NULL || str[2] || (v[3] != NULL && str[3]) ||
		    (v[4] != NULL && str[4]) || (v[5] != NULL && str[5]) ||
		    add_item(k, &used, v, vn, 0) < 0)
			return -1;
		if (*p == ',')
			p++;
		else if (p[0] == ']' && p[1] == '\0')
			break;
		else
			return -1;
	}
	place_names(k);
	return 0;
}

int
tl_kernlist_read(struct tl_kernlist *k, const char *s)
{
	return tl_kernlist_readn(k, s, strlen(s));
}

int
tl_kernlist_readn(struct tl_kernlist *k, const char *s, size_t len)
{
	static const char *const keys[NKEY] = { "name", "ts", "dur",
	    "launch_ts", "grid", "block" };
	struct tl_json *j = &k->j;
	const char *err;
	size_t used = 0;
	int tok, e, v[NKEY];

	k->n = 0;
	if (s[0] == '\0')
		return 0;
	if (read_plain(k, s, len) == 0)
		return 0;
	k->n = 0;
	if (tl_json_parse(j, s, len, &err) < 1 ||
	    tl_json_type(j, 0) != TL_J_ARRAY)
		return -1;
	for (tok = 1, e = 0; e < tl_json_size(j, 0); e++,
	    tok = tl_json_next(j, tok)) {
		const char *txt[NKEY] = { NULL };
		size_t len[NKEY] = { 0 };
		int m;

		if (tl_json_type(j, tok) != TL_J_OBJECT)
			break;
		tl_json_members(j, tok, keys, NKEY, v);
		if (v[0] < 0 || v[1] < 0 || v[2] < 0)
			break;
		for (m = 0; m < NKEY; m++)
			if (v[m] >= 0)
				txt[m] = tl_json_text(j, v[m], &len[m]);
		if (add_item(k, &used, txt, len, 1) < 0)
			break;
	}
	place_names(k);
	return e < tl_json_size(j, 0) ? -1 : 0;
}
