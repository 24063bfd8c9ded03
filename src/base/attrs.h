/*
 * A node's attributes as the ops see them: an opaque handle with typed,
 * message-free accessors (base layer, src/base/). The loader, the builder and
 * the importer hold the attributes as a JSON object and pass
 * wnn_attrs_from_json(object); the ops read them through the wnn_attr_*
 * readers of ops/op.h, which are built on these and word the messages.
 */
#ifndef WNN_BASE_ATTRS_H
#define WNN_BASE_ATTRS_H

#include <stdbool.h>
#include <stdint.h>

struct cJSON;

typedef struct wnn_attrs wnn_attrs;

/* The handle of a JSON object of attributes (borrowed: valid as long as the
 * object). NULL stays NULL: no attributes. Costs nothing: no copy is made. */
const wnn_attrs *wnn_attrs_from_json(const struct cJSON *object);

/* What attribute name holds. */
typedef enum wnn_attr_kind {
  WNN_ATTR_ABSENT = 0, /* no such attribute, or no attributes object at all */
  WNN_ATTR_NUMBER,
  WNN_ATTR_STRING,
  WNN_ATTR_LIST,
  WNN_ATTR_OTHER       /* a JSON value of another kind (object, bool, null) */
} wnn_attr_kind;
wnn_attr_kind wnn_attrs_kind(const wnn_attrs *attrs, const char *name);

/* A number or a string attribute: false when absent or of another kind. */
bool wnn_attrs_number(const wnn_attrs *attrs, const char *name, double *out);
bool wnn_attrs_string(const wnn_attrs *attrs, const char *name, const char **out);

/* A list attribute: its length (-1 when absent or not a list), and element i
 * as a number or a string (false when out of range or of another kind). */
int wnn_attrs_list_size(const wnn_attrs *attrs, const char *name);
bool wnn_attrs_list_number(const wnn_attrs *attrs, const char *name, int i, double *out);
bool wnn_attrs_list_string(const wnn_attrs *attrs, const char *name, int i, const char **out);

/* A boolean list element (JSON true/false): false when it is not one. */
bool wnn_attrs_list_bool(const wnn_attrs *attrs, const char *name, int i, bool *out);

/* An attribute that is itself an object (a tensor attribute, which the
 * importer writes as {"dtype": name, "shape": [dims], "data": [values]}), as
 * a handle read with these same functions; NULL when absent or not an object. */
const wnn_attrs *wnn_attrs_object(const wnn_attrs *attrs, const char *name);

/* The attribute names, for validation: the count (-1 when the handle is not
 * an object, 0 for NULL) and the name of attribute i (NULL when unnamed). */
int wnn_attrs_count(const wnn_attrs *attrs);
const char *wnn_attrs_name(const wnn_attrs *attrs, int i);

#endif /* WNN_BASE_ATTRS_H */
