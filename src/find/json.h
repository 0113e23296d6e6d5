/**
 * json.h: JSON text for -json, -fjson and luafind.json (json.c).
 *
 * Strings are file names, which are bytes: valid UTF-8 is written as it is
 * (only '"', '\\', the C0 and C1 controls, DEL, U+2028 and U+2029 are
 * escaped), and each byte that is not part of a valid UTF-8 sequence becomes
 * the escape of a lone low surrogate, "\udc80" to "\udcff" for bytes 0x80 to
 * 0xff, as Python's "surrogateescape" error handler (PEP 383) decodes it.
 * UTF-8 cannot encode surrogates, so the scheme is lossless and
 * unambiguous: os.fsencode(json.loads(line)["path"]) gives back the bytes.
 *
 * An entry is one object on one line (NDJSON).  Its fields, by name (the
 * -json FIELDS list): path, name, depth, type (find's -type letter), size,
 * mode, perm, uid, gid, user, group, nlink, ino, dev, rdev, blocks, atime,
 * mtime, ctime, btime (seconds since the epoch, a number with nine
 * fractional digits), target (a link's target).  Every object of one list
 * has the same keys: a value that could not be had is null, and the caller
 * says why (lf_json_write_entry).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef LF_JSON_H
#define LF_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "idnames.h"
#include "output.h"
#include "stat.h"
#include "walk.h"

/** The fields of an entry's object, in the default order. */
enum lf_json_field {
	LF_JSON_PATH,
	LF_JSON_NAME,
	LF_JSON_DEPTH,
	LF_JSON_TYPE,
	LF_JSON_SIZE, /* the first field that needs stat data */
	LF_JSON_MODE,
	LF_JSON_UID,
	LF_JSON_GID,
	LF_JSON_NLINK,
	LF_JSON_INO,
	LF_JSON_DEV,
	LF_JSON_ATIME,
	LF_JSON_MTIME,
	LF_JSON_CTIME, /* the last of the default set */
	LF_JSON_BTIME,
	LF_JSON_PERM,
	LF_JSON_USER,
	LF_JSON_GROUP,
	LF_JSON_RDEV,
	LF_JSON_BLOCKS,
	LF_JSON_TARGET,
	LF_JSON_NFIELDS,
};

/** Which fields an object has, in which order. */
struct lf_json_fields {
	size_t n;          /**< how many; 0 stands for the default set */
	unsigned char ids[LF_JSON_NFIELDS];
	bool needs_stat;   /**< a field of the list reads stat data */
};

/**
 * Set @f to the default set, the object of -json without a list: path,
 * name, depth, type, size, mode, uid, gid, nlink, ino, dev, atime, mtime,
 * ctime (needs_stat: one stat per entry).
 */
void lf_json_fields_default(struct lf_json_fields *f);

/**
 * Parse a comma-separated list of field names ("path,size,mtime").
 *
 * @param bad on failure, set to the offset of the unknown, repeated or
 *            empty name in @list
 * @param badlen its length
 * @return 0, or -1 (EINVAL: unknown or empty, EEXIST: given twice)
 */
int lf_json_fields_parse(const char *list, struct lf_json_fields *f, size_t *bad, size_t *badlen);

/** The field name closest to @name[0, len) (for "did you mean"), or NULL. */
const char *lf_json_field_suggest(const char *name, size_t len);

/** The name of field @id. */
const char *lf_json_field_name(enum lf_json_field id);

/** Every field name, in enum order, separated by spaces (for messages). */
const char *lf_json_field_names(void);

/**
 * Escape the bytes @s[0, len) as the inside of a JSON string (no quotes),
 * into @dst, stopping before the output would pass @cap bytes.  Whole
 * characters only: each input character takes at most 6 output bytes, so
 * @cap >= 6 * @len always suffices.
 *
 * @param used set to the input bytes consumed
 * @return the bytes written
 */
size_t lf_json_escape(char *dst, size_t cap, const char *s, size_t len, size_t *used);

/** Append @s[0, len) as a JSON string, quotes included. */
void lf_json_write_string(struct lf_out *o, const char *s, size_t len);

/**
 * Append the object of entry @e and a newline: exactly the fields of @f
 * (NULL or f->n == 0: the default set, lf_json_fields_default), in their
 * order, whatever is missing.  The fields that need stat data are null
 * when @st is NULL (its stat failed: the caller reports why).  Null is
 * also the value of what has none: btime where the filesystem records no
 * birth time, user and group for an id without a name, target for what is
 * not a symbolic link.
 *
 * @param ids the user and group name cache (for user, group)
 * @return 0, or the errno of a link that could not be read (its target is
 *         written as null)
 */
int lf_json_write_entry(struct lf_out *o, const struct lf_entry *e, const struct lf_stat *st,
			const struct lf_json_fields *f, struct lf_idnames *ids);

#endif
