/*
 * The params blob reader (docs/params.md, "Container"). Layout, little-endian:
 *
 *   0  magic 89 57 4E 50 0D 0A 1A 0A     32  tensor_count (4)
 *   8  major (2) = 1, minor (2)           36  entry_size (4) = 64
 *  12  header_size (4) = 64               40  table_offset (8), 64-aligned
 *  16  file_size (8)                      48  header_crc (4)
 *  24  required_features (8), none known  52  meta_size (8)
 *                                         60  reserved (4), zero
 *
 * The meta block [table_offset, table_offset + meta_size) holds the entries,
 * then each entry's dims (int64) in table order, then the names. header_crc
 * is the CRC-32 of bytes 0-47, 52-63 and the meta block. Tensor data lies
 * after the meta block, each at a 64-aligned offset, without overlap.
 */
#include "runtime/codec.h"
#include "runtime/params.h"

#include <stdatomic.h>
#include <string.h>

#include "base/status.h"
#include "runtime/alloc.h"
#include "runtime/format.h"
#include "runtime/sha256.h"

struct wnn_params {
  atomic_int refs;
  wnn_allocator alloc;
  uint8_t *owned; /* the copy of the file, or NULL when borrowed */
  uint8_t *decoded; /* tensors of decoding codecs (fp16, int8, user), 64-aligned each */
  size_t decoded_size;
  size_t file_size;
  int count;
  wnn_params_tensor *tensors; /* sorted by name */
  size_t tensors_cap;         /* entries allocated (at least 1) */
  char *names;                /* the NUL-terminated names, one block */
  size_t names_size;
  int has_digest;
  uint8_t digest[32];
};

/* The message to the thread's last error; returns the status. */
#define fail(...) wnn_seterr(NULL, 0, __VA_ARGS__)

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* Byte-wise order, a shorter name before its extensions. */
static size_t align_up(size_t v) { return (v + WNN_PARAMS_ALIGN - 1) & ~(size_t)(WNN_PARAMS_ALIGN - 1); }

/* Whether n bytes are zero (padding the writer leaves zero, so that no byte
 * of a blob goes unchecked). */
static int zeros(const uint8_t *p, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (p[i]) return 0;
  return 1;
}

static int name_cmp(const char *a, size_t la, const char *b, size_t lb) {
  const int c = memcmp(a, b, la < lb ? la : lb);
  return c ? c : la < lb ? -1 : la > lb;
}

static void destroy(wnn_params *p) {
  const wnn_allocator a = p->alloc;
  wnn_free(&a, p->tensors, sizeof *p->tensors * p->tensors_cap, 8);
  wnn_free(&a, p->names, p->names_size, 1);
  wnn_free(&a, p->owned, p->file_size, WNN_PARAMS_ALIGN);
  wnn_free(&a, p->decoded, p->decoded_size, WNN_PARAMS_ALIGN);
  wnn_free(&a, p, sizeof *p, 8);
}

/* Checks everything except the per-tensor CRCs and the digest; fills p's
 * tensors and names from buf (data pointers into buf). */
static wnn_status parse(wnn_params *p, const uint8_t *buf, size_t size, int verify) {
  if (size < WNN_PARAMS_HEADER_SIZE)
    return fail(WNN_ERR_TRUNCATED, "params: %zu bytes, shorter than the 64-byte header", size);
  if (memcmp(buf, WNN_PARAMS_MAGIC, 8) != 0) {
    if (memcmp(buf, WNN_MAGIC, WNN_MAGIC_SIZE) == 0)
      return fail(WNN_ERR_BAD_MAGIC, "params: this is a model artifact (.wnn), not a params blob");
    return fail(WNN_ERR_BAD_MAGIC, "params: not a wnn params blob (bad magic)");
  }
  const unsigned major = rd16(buf + 8), minor = rd16(buf + 10);
  if (major != 1)
    return fail(WNN_ERR_VERSION, "params: format version %u.%u, this reader reads 1.x", major,
                minor);
  const uint32_t header_size = wnn_rd32(buf + 12), entry_size = wnn_rd32(buf + 36);
  if (header_size != WNN_PARAMS_HEADER_SIZE || entry_size != WNN_PARAMS_ENTRY_SIZE)
    return fail(WNN_ERR_BAD_SECTION, "params: header size %u and entry size %u (expected 64, 64)",
                header_size, entry_size);
  const uint64_t file_size = wnn_rd64(buf + 16), features = wnn_rd64(buf + 24);
  if (file_size > size)
    return fail(WNN_ERR_TRUNCATED, "params: the header says %llu bytes, the buffer has %zu",
                (unsigned long long)file_size, size);
  if (file_size < WNN_PARAMS_HEADER_SIZE)
    return fail(WNN_ERR_BAD_SECTION, "params: file_size %llu is below the header's 64 bytes",
                (unsigned long long)file_size);
  if (features)
    return fail(WNN_ERR_FEATURE, "params: required feature bits 0x%llx unknown to this reader",
                (unsigned long long)features);
  const uint32_t count = wnn_rd32(buf + 32);
  const uint64_t table = wnn_rd64(buf + 40), meta = wnn_rd64(buf + 52);
  if (count > WNN_PARAMS_MAX_TENSORS)
    return fail(WNN_ERR_LIMIT, "params: %u tensors (limit %d)", count, WNN_PARAMS_MAX_TENSORS);
  if (table < WNN_PARAMS_HEADER_SIZE || table % WNN_PARAMS_ALIGN || table > file_size ||
      meta > file_size - table || meta < (uint64_t)count * WNN_PARAMS_ENTRY_SIZE)
    return fail(WNN_ERR_BAD_SECTION,
                "params: tensor table at %llu (%llu bytes) is misaligned, too small for %u "
                "entries or outside the %llu-byte file",
                (unsigned long long)table, (unsigned long long)meta, count,
                (unsigned long long)file_size);
  if (wnn_rd32(buf + 60) != 0)
    return fail(WNN_ERR_BAD_SECTION, "params: reserved header bytes are not zero");
  if (verify) {
    uint32_t crc = wnn_crc32(0, buf, 48);
    crc = wnn_crc32(crc, buf + 52, 12);
    crc = wnn_crc32(crc, buf + table, (size_t)meta);
    if (crc != wnn_rd32(buf + 48))
      return fail(WNN_ERR_CHECKSUM, "params: header CRC-32 mismatch (the tensor table is damaged)");
  }
  const uint64_t meta_end = table + meta;
  /* Pass 1: dims, names, sizes; names into one block. */
  uint64_t dims_at = table + (uint64_t)count * WNN_PARAMS_ENTRY_SIZE, names_total = 0;
  for (uint32_t i = 0; i < count; i++) {
    const uint8_t *e = buf + table + (uint64_t)i * WNN_PARAMS_ENTRY_SIZE;
    const uint64_t name_off = wnn_rd64(e), name_size = wnn_rd32(e + 8);
    if (name_size == 0 || name_size > WNN_PARAMS_MAX_NAME || name_off < dims_at ||
        name_off > meta_end || name_size > meta_end - name_off)
      return fail(WNN_ERR_BAD_SECTION,
                  "params: tensor %u's name (%llu bytes at %llu) is empty, too long or outside "
                  "the table's names",
                  i, (unsigned long long)name_size, (unsigned long long)name_off);
    if (memchr(buf + name_off, 0, (size_t)name_size))
      return fail(WNN_ERR_MALFORMED, "params: tensor %u's name holds a NUL byte", i);
    names_total += name_size + 1;
    const uint32_t ndim = wnn_rd32(e + 16);
    if (ndim > WNN_MAX_DIMS)
      return fail(WNN_ERR_LIMIT, "params: tensor '%.*s' has %u dims (limit %d)", (int)name_size,
                  (const char *)buf + name_off, ndim, WNN_MAX_DIMS);
    dims_at += 8 * (uint64_t)ndim;
  }
  if (dims_at > meta_end)
    return fail(WNN_ERR_BAD_SECTION, "params: the dims run past the tensor table");
  /* Names may not share bytes: together they fit in the names block, which
   * also bounds the copy below by the file's size (no wrap in size_t). */
  if (names_total - count > meta_end - dims_at)
    return fail(WNN_ERR_BAD_SECTION,
                "params: the names add up to %llu bytes, more than the %llu-byte names block",
                (unsigned long long)(names_total - count),
                (unsigned long long)(meta_end - dims_at));
  p->names_size = names_total ? (size_t)names_total : 1;
  p->names = wnn_alloc(&p->alloc, p->names_size, 1);
  p->tensors_cap = count ? count : 1;
  p->tensors = wnn_calloc(&p->alloc, p->tensors_cap, sizeof *p->tensors, 8);
  if (!p->names || !p->tensors) return fail(WNN_ERR_OUT_OF_MEMORY, "params: out of memory");
  p->count = (int)count;
  char *np = p->names;
  uint64_t da = table + (uint64_t)count * WNN_PARAMS_ENTRY_SIZE;
  uint64_t data_end = meta_end; /* data is checked for order below */
  for (uint32_t i = 0; i < count; i++) {
    const uint8_t *e = buf + table + (uint64_t)i * WNN_PARAMS_ENTRY_SIZE;
    wnn_params_tensor *t = &p->tensors[i];
    const uint64_t name_off = wnn_rd64(e), name_size = wnn_rd32(e + 8);
    memcpy(np, buf + name_off, (size_t)name_size);
    np[name_size] = 0;
    t->name = np;
    np += name_size + 1;
    if (i > 0 && name_cmp(t[-1].name, strlen(t[-1].name), t->name, (size_t)name_size) >= 0)
      return fail(WNN_ERR_MALFORMED,
                  "params: tensor '%s' is out of order or repeated (names must be unique and "
                  "sorted)",
                  t->name);
    const uint32_t dtype = wnn_rd32(e + 12);
    const size_t esize = dtype <= 0xffff ? wnn_dtype_size((wnn_dtype)dtype) : 0;
    if (!esize) return fail(WNN_ERR_DTYPE, "params: tensor '%s' has unknown dtype %u", t->name, dtype);
    t->dtype = (wnn_dtype)dtype;
    t->ndim = (int)wnn_rd32(e + 16);
    uint64_t numel = 1;
    for (int d = 0; d < t->ndim; d++, da += 8) {
      const int64_t v = (int64_t)wnn_rd64(buf + da);
      if (v < 0 || (v && numel > UINT64_MAX / (uint64_t)v))
        return fail(WNN_ERR_SHAPE, "params: tensor '%s' has dim %d = %lld", t->name, d,
                    (long long)v);
      t->dims[d] = v;
      numel *= (uint64_t)v;
    }
    t->codec = wnn_rd32(e + 20);
    const uint64_t off = wnn_rd64(e + 24), stored = wnn_rd64(e + 32), dsize = wnn_rd64(e + 40);
    if (numel > UINT64_MAX / esize || numel * esize != dsize)
      return fail(WNN_ERR_SIZE, "params: tensor '%s' says %llu bytes, its dtype and shape make %llu",
                  t->name, (unsigned long long)dsize,
                  (unsigned long long)(numel > UINT64_MAX / esize ? UINT64_MAX : numel * esize));
    if (t->codec != WNN_CODEC_RAW) {
      char what[WNN_PARAMS_MAX_NAME + 32];
      wnn_fmt(what, sizeof what, "params: tensor '%s'", t->name);
      wnn_status st = wnn_codec_check(t->codec, t->dtype, t->ndim, t->dims, (size_t)dsize,
                                      (size_t)stored, what);
      if (st) return st;
    } else if (stored != dsize) {
      return fail(WNN_ERR_SIZE, "params: raw tensor '%s' stores %llu bytes for %llu", t->name,
                  (unsigned long long)stored, (unsigned long long)dsize);
    }
    t->stored = (size_t)stored;
    if (wnn_rd32(e + 52) || wnn_rd64(e + 56))
      return fail(WNN_ERR_BAD_SECTION, "params: tensor '%s' has nonzero reserved bytes", t->name);
    t->size = (size_t)dsize;
    /* Data offsets: aligned, after the table, inside the file, no overlap
     * (checked pairwise after sorting by offset would cost a sort; the
     * writer lays tensors out in table order, and this reader asks for it). */
    if (off % WNN_PARAMS_ALIGN || off < data_end || off > file_size || stored > file_size - off)
      return fail(WNN_ERR_BAD_SECTION,
                  "params: tensor '%s' (%llu bytes at %llu) is misaligned, overlaps what comes "
                  "before it or lies outside the %llu-byte file",
                  t->name, (unsigned long long)stored, (unsigned long long)off,
                  (unsigned long long)file_size);
    if (!zeros(buf + data_end, off - data_end))
      return fail(WNN_ERR_BAD_SECTION, "params: nonzero padding before tensor '%s'", t->name);
    t->data = buf + off;
    data_end = off + stored;
  }
  if (!zeros(buf + data_end, file_size - data_end))
    return fail(WNN_ERR_BAD_SECTION, "params: nonzero padding after the last tensor");
  p->file_size = (size_t)file_size;
  return WNN_OK;
}

/* Decodes the tensors stored with fp16, int8 or a user codec into a block of
 * the params' own; their data then points there. */
static wnn_status decode(wnn_params *p) {
  size_t total = 0;
  for (int i = 0; i < p->count; i++)
    if (wnn_codec_decodes(p->tensors[i].codec)) {
      if (p->tensors[i].size > SIZE_MAX / 2 - total)
        return fail(WNN_ERR_LIMIT, "params: the decoded tensors add up to too many bytes");
      total += align_up(p->tensors[i].size);
    }
  if (!total) return WNN_OK;
  p->decoded = wnn_alloc(&p->alloc, total, WNN_PARAMS_ALIGN);
  if (!p->decoded)
    return fail(WNN_ERR_OUT_OF_MEMORY, "params: out of memory for %zu decoded bytes", total);
  p->decoded_size = total;
  size_t at = 0;
  for (int i = 0; i < p->count; i++) {
    wnn_params_tensor *t = &p->tensors[i];
    if (!wnn_codec_decodes(t->codec)) continue;
    char what[WNN_PARAMS_MAX_NAME + 32];
    wnn_fmt(what, sizeof what, "params: tensor '%s'", t->name);
    wnn_status st = wnn_codec_decode(&p->alloc, t->codec, t->dims, t->data, t->stored,
                                     p->decoded + at, t->size, what);
    if (st) return st;
    t->data = p->decoded + at;
    at += align_up(t->size);
  }
  return WNN_OK;
}

wnn_status wnn_params_load(const void *data, size_t size, const wnn_load_options *options,
                           wnn_params **out) {
  wnn_clear_error();
  if (!data || !out) return fail(WNN_ERR_INVALID_ARGUMENT, "params: data and out are required");
  if (options && (options->flags & ~(unsigned)(WNN_LOAD_BORROW | WNN_LOAD_NO_CHECKSUM)))
    return fail(WNN_ERR_INVALID_ARGUMENT, "wnn_params_load: unknown flags 0x%x", options->flags);
  if (options && options->allocator && (!options->allocator->alloc || !options->allocator->free))
    return fail(WNN_ERR_INVALID_ARGUMENT, "wnn_params_load: allocator lacks alloc or free");
  const unsigned flags = options ? options->flags : 0;
  const wnn_allocator *a =
      options && options->allocator ? options->allocator : &wnn_default_allocator;
  wnn_params *p = wnn_calloc(a, 1, sizeof *p, 8);
  if (!p) return fail(WNN_ERR_OUT_OF_MEMORY, "params: out of memory");
  p->alloc = *a;
  atomic_init(&p->refs, 1);
  const uint8_t *buf = data;
  const int verify = !(flags & WNN_LOAD_NO_CHECKSUM);
  wnn_status st = parse(p, buf, size, verify);
  if (st == WNN_OK && verify) {
    for (int i = 0; i < p->count; i++) {
      const wnn_params_tensor *t = &p->tensors[i];
      const uint8_t *e = buf + wnn_rd64(buf + 40) + (size_t)i * WNN_PARAMS_ENTRY_SIZE;
      if (wnn_crc32(0, t->data, t->stored) != wnn_rd32(e + 48)) {
        st = fail(WNN_ERR_CHECKSUM, "params: tensor '%s' does not match its CRC-32", t->name);
        break;
      }
    }
    if (st == WNN_OK) {
      wnn_sha256_of(buf, p->file_size, p->digest);
      p->has_digest = 1;
    }
  }
  /* Borrowed bytes are used in place when 64-aligned (the tensors then are
   * too); a misaligned buffer is copied, as without WNN_LOAD_BORROW. */
  if (st == WNN_OK && (!(flags & WNN_LOAD_BORROW) || (uintptr_t)buf % WNN_PARAMS_ALIGN)) {
    p->owned = wnn_alloc(a, p->file_size, WNN_PARAMS_ALIGN);
    if (!p->owned) {
      st = fail(WNN_ERR_OUT_OF_MEMORY, "params: out of memory copying %zu bytes", p->file_size);
    } else {
      memcpy(p->owned, buf, p->file_size);
      for (int i = 0; i < p->count; i++)
        p->tensors[i].data = p->owned + ((const uint8_t *)p->tensors[i].data - buf);
    }
  }
  if (st == WNN_OK) st = decode(p);
  if (st != WNN_OK) {
    destroy(p);
    return st;
  }
  *out = p;
  return WNN_OK;
}

void wnn_params_retain(wnn_params *params) {
  if (params) atomic_fetch_add(&params->refs, 1);
}

void wnn_params_free(wnn_params *params) {
  if (params && atomic_fetch_sub(&params->refs, 1) == 1) destroy(params);
}

int wnn_params_count(const wnn_params *params) { return params ? params->count : 0; }

const wnn_params_tensor *wnn_params_tensor_at(const wnn_params *params, int index) {
  return params && index >= 0 && index < params->count ? &params->tensors[index] : NULL;
}

const wnn_params_tensor *wnn_params_find(const wnn_params *params, const char *name, size_t len) {
  if (!params || !name) return NULL;
  int lo = 0, hi = params->count;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    const char *m = params->tensors[mid].name;
    const int c = name_cmp(m, strlen(m), name, len);
    if (c == 0) return &params->tensors[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

const uint8_t *wnn_params_digest(const wnn_params *params) {
  return params && params->has_digest ? params->digest : NULL;
}

size_t wnn_params_file_size(const wnn_params *params) { return params ? params->file_size : 0; }

/* ------------------------------------------------------------- public API */

wnn_status wnn_params_info(const wnn_params *params, int index, wnn_tensor_info *info) {
  wnn_clear_error();
  if (!params || !info) return fail(WNN_ERR_INVALID_ARGUMENT, "params info: params or info is NULL");
  const wnn_params_tensor *t = wnn_params_tensor_at(params, index);
  if (!t)
    return fail(WNN_ERR_OUT_OF_RANGE, "params info: index %d, the blob has %d tensors", index,
                params->count);
  *info = (wnn_tensor_info){t->name, t->dtype, t->ndim, t->dims, t->size};
  return WNN_OK;
}
