/* json.h - a small strict JSON reader (RFC 8259) for the report's metadata sidecar.
**
** Hostile input is expected: nesting deeper than MX_JSON_MAX_DEPTH, more than MX_JSON_MAX_NODES
** values, objects of more than MX_JSON_MAX_MEMBERS keys, duplicate object keys, a \u0000 escape, control characters in strings, numbers that
** overflow a double, and text after the value are refused with MXSIM_E_INPUT naming
** "PATH:LINE: field 'json': why".  The size limit is the caller's (mx_file_read's max_bytes).
*/
#ifndef MX_JSON_H
#define MX_JSON_H

#include "internal.h"

#define MX_JSON_MAX_DEPTH 32
#define MX_JSON_MAX_NODES 200000
#define MX_JSON_MAX_MEMBERS 256 /* per object: keeps the duplicate-key check cheap */

typedef enum { MX_JSON_NULL, MX_JSON_BOOL, MX_JSON_NUM, MX_JSON_STR, MX_JSON_ARR, MX_JSON_OBJ } mx_json_type;

typedef struct {
    mx_json_type type;
    int line;        /* 1-based line of the value, for messages */
    int count;       /* ARR/OBJ: members */
    int first, next; /* first member, next sibling (node indices; -1: none) */
    const char *key; /* member of an OBJ: its key */
    const char *str; /* STR: the decoded text (UTF-8, no NUL inside) */
    double num;      /* NUM; BOOL: 0 or 1 */
} mx_json_node;

typedef struct {
    mx_json_node *node; /* node[0] is the root */
    int n, cap;
    char *strs; /* decoded strings and keys */
} mx_json;

MX_INTERNAL mxsim_status mx_json_parse(mxsim_ctx *ctx, const char *path, const char *data, size_t len,
                                       mx_json *out);
MX_INTERNAL void mx_json_free(mx_json *j);
/* Member key of object node obj, or -1 (also when obj is not an object). */
MX_INTERNAL int mx_json_get(const mx_json *j, int obj, const char *key);
/* Element i of array node arr, or -1. */
MX_INTERNAL int mx_json_at(const mx_json *j, int arr, int i);

#endif
