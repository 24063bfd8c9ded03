/* The params blob writer (layout: src/runtime/params.c). */
#include "builder/params_writer.h"

#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "builder/writer.h"
#include "runtime/alloc.h"
#include "runtime/format.h"
#include "runtime/params.h"

/* qsort over pointers to the entries: no shared state. */
static int by_name(const void *x, const void *y) {
  return strcmp((*(const wnn_params_entry *const *)x)->name,
                (*(const wnn_params_entry *const *)y)->name);
}

static size_t align_up(size_t v) { return (v + WNN_PARAMS_ALIGN - 1) / WNN_PARAMS_ALIGN * WNN_PARAMS_ALIGN; }

/* Bytes a tensor takes in the file: its decoded bytes when raw. */
static size_t stored_of(const wnn_params_entry *e, size_t nbytes) {
  return e->codec == WNN_CODEC_RAW ? nbytes : e->stored_size;
}

static void wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }

wnn_status wnn_params_write(const wnn_allocator *a, const wnn_params_entry *t, int n,
                            uint8_t **out, size_t *size) {
  if (!a || !out || !size || n < 0 || (n && !t))
    return wnn_seterr(NULL, 0, WNN_ERR_INVALID_ARGUMENT, "params writer: bad arguments");
  const wnn_params_entry **order = wnn_alloc(a, sizeof *order * (size_t)(n ? n : 1), sizeof *order);
  size_t *nbytes = wnn_alloc(a, sizeof(size_t) * (size_t)(n ? n : 1), sizeof(size_t));
  wnn_status st = WNN_OK;
  if (!order || !nbytes) {
    st = wnn_seterr(NULL, 0, WNN_ERR_OUT_OF_MEMORY, "params writer: out of memory");
    goto done;
  }
  size_t dims_bytes = 0, names_bytes = 0;
  for (int i = 0; i < n; i++) {
    order[i] = &t[i];
    const size_t es = wnn_dtype_size(t[i].dtype), len = t[i].name ? strlen(t[i].name) : 0;
    if (!len || len > WNN_PARAMS_MAX_NAME || !es || t[i].ndim < 0 || t[i].ndim > WNN_MAX_DIMS ||
        (t[i].ndim && !t[i].dims)) {
      st = wnn_seterr(NULL, 0, WNN_ERR_INVALID_ARGUMENT,
                      "params writer: tensor %d ('%s'): empty or long name, bad dtype or shape", i,
                      t[i].name ? t[i].name : "");
      goto done;
    }
    size_t numel = 1;
    for (int d = 0; d < t[i].ndim; d++) numel *= (size_t)t[i].dims[d];
    nbytes[i] = numel * es;
    dims_bytes += 8 * (size_t)t[i].ndim;
    names_bytes += len;
  }
  qsort(order, (size_t)n, sizeof *order, by_name);
  for (int i = 1; i < n; i++)
    if (strcmp(order[i - 1]->name, order[i]->name) == 0) {
      st = wnn_seterr(NULL, 0, WNN_ERR_INVALID_ARGUMENT, "params writer: tensor '%s' repeated",
                      order[i]->name);
      goto done;
    }
  const size_t table = WNN_PARAMS_HEADER_SIZE;
  const size_t meta = (size_t)n * WNN_PARAMS_ENTRY_SIZE + dims_bytes + names_bytes;
  size_t total = align_up(table + meta);
  for (int i = 0; i < n; i++) total = align_up(total + stored_of(order[i], nbytes[order[i] - t]));
  uint8_t *buf = wnn_alloc(a, total, WNN_PARAMS_ALIGN);
  if (!buf) {
    st = wnn_seterr(NULL, 0, WNN_ERR_OUT_OF_MEMORY, "params writer: out of memory (%zu bytes)",
                    total);
    goto done;
  }
  memset(buf, 0, total);
  memcpy(buf, WNN_PARAMS_MAGIC, 8);
  wr16(buf + 8, 1), wr16(buf + 10, 0);
  wnn_wr32(buf + 12, WNN_PARAMS_HEADER_SIZE);
  wnn_wr64(buf + 16, total);
  wnn_wr32(buf + 32, (uint32_t)n);
  wnn_wr32(buf + 36, WNN_PARAMS_ENTRY_SIZE);
  wnn_wr64(buf + 40, table);
  wnn_wr64(buf + 52, meta);
  size_t dims_at = table + (size_t)n * WNN_PARAMS_ENTRY_SIZE, names_at = dims_at + dims_bytes;
  size_t data_at = align_up(table + meta);
  for (int r = 0; r < n; r++) {
    const wnn_params_entry *e = order[r];
    uint8_t *en = buf + table + (size_t)r * WNN_PARAMS_ENTRY_SIZE;
    const size_t len = strlen(e->name), nb = nbytes[order[r] - t], sb = stored_of(e, nb);
    wnn_wr64(en, names_at);
    wnn_wr32(en + 8, (uint32_t)len);
    wnn_wr32(en + 12, (uint32_t)e->dtype);
    wnn_wr32(en + 16, (uint32_t)e->ndim);
    wnn_wr32(en + 20, e->codec);
    wnn_wr64(en + 24, data_at);
    wnn_wr64(en + 32, sb);
    wnn_wr64(en + 40, nb);
    memcpy(buf + names_at, e->name, len);
    names_at += len;
    for (int d = 0; d < e->ndim; d++, dims_at += 8) wnn_wr64(buf + dims_at, (uint64_t)e->dims[d]);
    if (sb) memcpy(buf + data_at, e->codec ? e->stored : e->data, sb);
    wnn_wr32(en + 48, wnn_crc32(0, buf + data_at, sb));
    data_at = align_up(data_at + sb);
  }
  uint32_t crc = wnn_crc32(0, buf, 48);
  crc = wnn_crc32(crc, buf + 52, 12);
  wnn_wr32(buf + 48, wnn_crc32(crc, buf + table, meta));
  *out = buf;
  *size = total;
done:
  wnn_free(a, order, sizeof *order * (size_t)(n ? n : 1), sizeof *order);
  wnn_free(a, nbytes, sizeof(size_t) * (size_t)(n ? n : 1), sizeof(size_t));
  return st;
}

/* Whether the two tensors agree in dtype, shape and bytes; else the status of
 * the first difference with its message. */
static wnn_status same_tensor(const wnn_params_tensor *o, const wnn_params_tensor *r) {
  if (o->dtype != r->dtype)
    return wnn_seterr(NULL, 0, WNN_ERR_DTYPE, "tensor '%s' is %s here and %s in the blob", o->name,
                      wnn_dtype_name(o->dtype), wnn_dtype_name(r->dtype));
  int same = o->ndim == r->ndim;
  for (int d = 0; same && d < o->ndim; d++) same = o->dims[d] == r->dims[d];
  if (!same)
    return wnn_seterr(NULL, 0, WNN_ERR_SHAPE,
                      "tensor '%s' has another shape here (%d dims) than in the blob (%d dims)",
                      o->name, o->ndim, r->ndim);
  if (o->size != r->size || (o->size && memcmp(o->data, r->data, o->size)))
    return wnn_seterr(NULL, 0, WNN_ERR_MALFORMED,
                      "tensor '%s' has other values here than in the blob (this conversion "
                      "folded or packed it differently)",
                      o->name);
  return WNN_OK;
}

wnn_status wnn_params_refer(uint8_t *art, size_t art_size, const void *own, size_t own_size,
                            const void *ref, size_t ref_size) {
  wnn_clear_error();
  wnn_container c;
  wnn_status st = wnn_container_read(art, art_size, 0, &c);
  if (st) return st;
  if (!c.params_ref.data)
    return wnn_seterr(NULL, 0, WNN_ERR_INVALID_ARGUMENT,
                      "the artifact is self-contained: it has no params to refer to a blob");
  wnn_params *o = NULL, *r = NULL;
  if ((st = wnn_params_load(own, own_size, NULL, &o))) return st;
  if ((st = wnn_params_load(ref, ref_size, NULL, &r))) {
    wnn_params_free(o);
    return st;
  }
  const int n = wnn_params_count(o);
  for (int i = 0; i < n && !st; i++) {
    const wnn_params_tensor *t = wnn_params_tensor_at(o, i);
    const wnn_params_tensor *u = wnn_params_find(r, t->name, strlen(t->name));
    st = u ? same_tensor(t, u)
           : wnn_seterr(NULL, 0, WNN_ERR_NOT_FOUND, "tensor '%s' is not in the blob", t->name);
  }
  if (!st) { /* PARAMS_REF <- the blob's digest and size; its CRC and the header's resealed */
    uint8_t *p = art + (c.params_ref.data - art);
    memcpy(p, wnn_params_digest(r), 32);
    wnn_wr64(p + 32, wnn_params_file_size(r));
    const uint32_t count = wnn_rd32(art + 40), esize = wnn_rd32(art + 44);
    for (uint32_t i = 0; i < count; i++) {
      uint8_t *e = art + WNN_HEADER_SIZE + (size_t)i * esize;
      if (wnn_rd32(e) == WNN_SECTION_PARAMS_REF) wnn_wr32(e + 32, wnn_crc32(0, p, WNN_PARAMS_REF_SIZE));
    }
    wnn_container_reseal(art);
  }
  wnn_params_free(o);
  wnn_params_free(r);
  return st;
}
