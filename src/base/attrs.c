/* The attributes handle over a cJSON object (base/attrs.h): a wnn_attrs
 * pointer is the object's own pointer, read here and nowhere else. */
#include "base/attrs.h"

#include <stddef.h>

#include <cjson/cJSON.h>

const wnn_attrs *wnn_attrs_from_json(const cJSON *object) { return (const wnn_attrs *)object; }

static const cJSON *object_of(const wnn_attrs *attrs) { return (const cJSON *)attrs; }

static const cJSON *find(const wnn_attrs *attrs, const char *name) {
  const cJSON *o = object_of(attrs);
  if (!o || !cJSON_IsObject(o)) return NULL;
  return cJSON_GetObjectItemCaseSensitive(o, name);
}

wnn_attr_kind wnn_attrs_kind(const wnn_attrs *attrs, const char *name) {
  const cJSON *item = find(attrs, name);
  if (!item) return WNN_ATTR_ABSENT;
  if (cJSON_IsNumber(item)) return WNN_ATTR_NUMBER;
  if (cJSON_IsString(item) && item->valuestring) return WNN_ATTR_STRING;
  if (cJSON_IsArray(item)) return WNN_ATTR_LIST;
  return WNN_ATTR_OTHER;
}

static bool number_of(const cJSON *item, double *out) {
  if (!cJSON_IsNumber(item)) return false;
  *out = item->valuedouble;
  return true;
}

static bool string_of(const cJSON *item, const char **out) {
  if (!cJSON_IsString(item) || !item->valuestring) return false;
  *out = item->valuestring;
  return true;
}

bool wnn_attrs_number(const wnn_attrs *attrs, const char *name, double *out) {
  return number_of(find(attrs, name), out);
}

bool wnn_attrs_string(const wnn_attrs *attrs, const char *name, const char **out) {
  return string_of(find(attrs, name), out);
}

int wnn_attrs_list_size(const wnn_attrs *attrs, const char *name) {
  const cJSON *item = find(attrs, name);
  return cJSON_IsArray(item) ? cJSON_GetArraySize(item) : -1;
}

static const cJSON *list_item(const wnn_attrs *attrs, const char *name, int i) {
  const cJSON *item = find(attrs, name);
  return cJSON_IsArray(item) && i >= 0 ? cJSON_GetArrayItem(item, i) : NULL;
}

bool wnn_attrs_list_number(const wnn_attrs *attrs, const char *name, int i, double *out) {
  return number_of(list_item(attrs, name, i), out);
}

bool wnn_attrs_list_string(const wnn_attrs *attrs, const char *name, int i, const char **out) {
  return string_of(list_item(attrs, name, i), out);
}

bool wnn_attrs_list_bool(const wnn_attrs *attrs, const char *name, int i, bool *out) {
  const cJSON *item = list_item(attrs, name, i);
  if (!cJSON_IsBool(item)) return false;
  *out = cJSON_IsTrue(item);
  return true;
}

const wnn_attrs *wnn_attrs_object(const wnn_attrs *attrs, const char *name) {
  const cJSON *item = find(attrs, name);
  return cJSON_IsObject(item) ? (const wnn_attrs *)item : NULL;
}

int wnn_attrs_count(const wnn_attrs *attrs) {
  const cJSON *o = object_of(attrs);
  if (!o) return 0;
  return cJSON_IsObject(o) ? cJSON_GetArraySize(o) : -1;
}

const char *wnn_attrs_name(const wnn_attrs *attrs, int i) {
  const cJSON *o = object_of(attrs);
  const cJSON *item = o && cJSON_IsObject(o) && i >= 0 ? cJSON_GetArrayItem(o, i) : NULL;
  return item ? item->string : NULL;
}
