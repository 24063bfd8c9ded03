/*
 * Einsum (ONNX opset 12), float32, up to 3 inputs and 12 distinct labels
 * (letters plus the broadcast dims of "..."). Explicit ("ij,jk->ik") and
 * implicit ("ij,jk": the labels that appear once, in ASCII order, after the
 * ellipsis dims) outputs; "..." broadcasts numpy-style, right-aligned, size 1
 * against any size; a label repeated within one input takes its diagonal.
 *
 * Prepare turns the equation into, per label, its size and each input's
 * element stride; run walks the output labels and, for each output element,
 * sums the product of the inputs over the other labels. No GEMM: a direct
 * loop, meant for the small contractions models use Einsum for.
 */
#include <string.h>

#include "ops/nn_internal.h"

WNN_PARAMS_FIT(wnn_einsum_params);

static const char OP[] = "Einsum";

/* Label ids: a letter is its character code (< 128); ellipsis dim k (of the
 * broadcast ellipsis, outermost first) is 128 + k. */
enum { ELLIPSIS_BASE = 128, MAX_IDS = 128 + WNN_MAX_DIMS };

typedef struct term {
  int letters; /* labels written as letters */
  bool ellipsis;
  int ell_at;              /* letters before the "..." */
  int chars[WNN_MAX_DIMS]; /* the letters, in order */
} term;

/* Parses one term of the equation, [s, end). */
static wnn_status parse_term(wnn_prepare_ctx *ctx, const char *s, const char *end, term *t) {
  memset(t, 0, sizeof *t);
  for (const char *c = s; c < end; c++) {
    if (*c == ' ') continue;
    if (*c == '.') {
      if (t->ellipsis || end - c < 3 || c[1] != '.' || c[2] != '.')
        return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                           "%s: equation term '%.*s' has a stray '.' (only one '...' allowed)", OP,
                           (int)(end - s), s);
      t->ellipsis = true, t->ell_at = t->letters;
      c += 2;
      continue;
    }
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: equation has an invalid character '%c'",
                         OP, *c);
    if (t->letters == WNN_MAX_DIMS)
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: equation term '%.*s' has too many labels",
                         OP, (int)(end - s), s);
    t->chars[t->letters++] = *c;
  }
  return WNN_OK;
}

wnn_status wnn_einsum_prepare(wnn_prepare_ctx *ctx) {
  wnn_einsum_params *p = ctx->params;
  wnn_status st;
  const char *eq;
  if ((st = wnn_attr_string(ctx, "equation", NULL, &eq))) return st;
  if (!eq) return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: equation is required", OP);
  if (ctx->num_inputs > WNN_EINSUM_MAX_INPUTS)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED, "%s: %d inputs, at most %d are supported", OP,
                       ctx->num_inputs, WNN_EINSUM_MAX_INPUTS);
  for (int i = 0; i < ctx->num_inputs; i++)
    if ((st = wnn_expect_dtype(ctx, OP, i, "Inputs", WNN_DTYPE_F32))) return st;

  /* Terms of the left-hand side, one per input. */
  /* The first "->": strchr for each '-', not strstr (musl's two-way strstr
   * is 1.5 KB of wasm, and this is its only caller in the runtime). */
  const char *arrow = eq;
  while ((arrow = strchr(arrow, '-')) && arrow[1] != '>') arrow++;
  const char *lhs_end = arrow ? arrow : eq + strlen(eq);
  term terms[WNN_EINSUM_MAX_INPUTS];
  int count = 0;
  for (const char *s = eq;;) {
    const char *comma = memchr(s, ',', (size_t)(lhs_end - s));
    const char *e = comma ? comma : lhs_end;
    if (count == ctx->num_inputs)
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                         "%s: equation '%s' has more terms than the %d inputs", OP, eq,
                         ctx->num_inputs);
    if ((st = parse_term(ctx, s, e, &terms[count++]))) return st;
    if (!comma) break;
    s = comma + 1;
  }
  if (count != ctx->num_inputs)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: equation '%s' has %d terms for %d inputs",
                       OP, eq, count, ctx->num_inputs);

  /* Every input dim's label id, and each label's size. */
  int ids[WNN_EINSUM_MAX_INPUTS][WNN_MAX_DIMS];
  int64_t size[MAX_IDS];
  int uses[MAX_IDS] = {0}, ell_rank = 0;
  for (int i = 0; i < count; i++) {
    const int rank = ctx->inputs[i].ndim, e = rank - terms[i].letters;
    if (e < 0 || (e > 0 && !terms[i].ellipsis))
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d has %d dims, its term names %d%s", OP, i,
                         rank, terms[i].letters, terms[i].ellipsis ? " and '...'" : "");
    if (e > ell_rank) ell_rank = e;
  }
  for (int i = 0; i < count; i++) {
    const wnn_tdesc *t = &ctx->inputs[i];
    const int e = t->ndim - terms[i].letters;
    for (int d = 0; d < t->ndim; d++) {
      int id;
      if (terms[i].ellipsis && d >= terms[i].ell_at && d < terms[i].ell_at + e)
        id = ELLIPSIS_BASE + ell_rank - e + (d - terms[i].ell_at);
      else
        id = terms[i].chars[d < terms[i].ell_at || !terms[i].ellipsis ? d : d - e];
      ids[i][d] = id;
      const int64_t n = t->dims[d];
      if (uses[id] == 0 || (id >= ELLIPSIS_BASE && size[id] == 1))
        size[id] = n;
      else if (n != size[id] && !(id >= ELLIPSIS_BASE && n == 1)) {
        if (id >= ELLIPSIS_BASE)
          return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                             "%s: the '...' dims of input %d do not broadcast (%lld vs %lld)", OP,
                             i, (long long)n, (long long)size[id]);
        return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                           "%s: label '%c' has size %lld in input %d but %lld elsewhere", OP, id,
                           (long long)n, i, (long long)size[id]);
      }
      uses[id]++;
    }
  }

  int total = 0;
  for (int id = 0; id < MAX_IDS; id++) total += uses[id] > 0;
  if (total > WNN_EINSUM_MAX_LABELS)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: equation '%s' has %d labels, at most %d are supported", OP, eq, total,
                       WNN_EINSUM_MAX_LABELS);

  /* The output's labels. */
  int order[WNN_EINSUM_MAX_LABELS + WNN_MAX_DIMS], num = 0;
  bool in_out[MAX_IDS] = {false};
  if (arrow) {
    term out;
    if ((st = parse_term(ctx, arrow + 2, arrow + strlen(arrow), &out))) return st;
    if (ell_rank > 0 && !out.ellipsis)
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                         "%s: the inputs have '...' dims but the output of '%s' does not", OP, eq);
    for (int k = 0; k <= out.letters; k++) {
      if (out.ellipsis && k == out.ell_at)
        for (int d = 0; d < ell_rank; d++) order[num++] = ELLIPSIS_BASE + d;
      if (k == out.letters) break;
      const int id = out.chars[k];
      if (!uses[id] || in_out[id])
        return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: output label '%c' is %s", OP, id,
                           uses[id] ? "repeated" : "in no input");
      in_out[id] = true;
      order[num++] = id;
    }
  } else {
    for (int d = 0; d < ell_rank; d++) order[num++] = ELLIPSIS_BASE + d;
    for (int id = 0; id < ELLIPSIS_BASE; id++)
      if (uses[id] == 1) order[num++] = id;
  }
  for (int k = 0; k < num; k++) in_out[order[k]] = true;
  p->num_out = num;
  int64_t out_dims[WNN_MAX_DIMS];
  if (num > WNN_MAX_DIMS)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED, "%s: the output would have %d dims", OP, num);
  for (int k = 0; k < num; k++) out_dims[k] = size[order[k]];
  /* Then the summed labels, in id order. */
  for (int id = 0; id < MAX_IDS; id++)
    if (uses[id] && !in_out[id]) {
      order[num++] = id;
    }
  p->num_labels = num;
  p->num_inputs = count;
  int slot[MAX_IDS];
  for (int k = 0; k < num; k++) slot[order[k]] = k, p->size[k] = size[order[k]];
  for (int i = 0; i < count; i++) {
    const wnn_tdesc *t = &ctx->inputs[i];
    for (int k = 0; k < num; k++) p->stride[i][k] = 0;
    int64_t stride = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
      if (!(t->dims[d] == 1 && size[ids[i][d]] != 1)) p->stride[i][slot[ids[i][d]]] += stride;
      stride *= t->dims[d];
    }
  }
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, p->num_out, out_dims);
}

wnn_status wnn_einsum_run(const wnn_run_ctx *ctx) {
  const wnn_einsum_params *p = ctx->params;
  const float *in[WNN_EINSUM_MAX_INPUTS];
  for (int i = 0; i < p->num_inputs; i++) in[i] = ctx->inputs[i].data;
  float *y = ctx->outputs[0].data;
  const int no = p->num_out, nl = p->num_labels;
  int64_t outer = 1, inner = 1;
  for (int k = 0; k < no; k++) outer *= p->size[k];
  for (int k = no; k < nl; k++) inner *= p->size[k];
  int64_t coord[WNN_EINSUM_MAX_LABELS] = {0}, base[WNN_EINSUM_MAX_INPUTS] = {0};
  for (int64_t o = 0; o < outer; o++) {
    /* Sum over the inner labels, offsets updated as their counter steps. */
    int64_t off[WNN_EINSUM_MAX_INPUTS];
    for (int i = 0; i < p->num_inputs; i++) off[i] = base[i];
    float sum = 0.0f;
    for (int64_t r = 0; r < inner; r++) {
      float prod = 1.0f;
      for (int i = 0; i < p->num_inputs; i++) prod *= in[i][off[i]];
      sum += prod;
      for (int k = nl - 1; k >= no; k--) {
        for (int i = 0; i < p->num_inputs; i++) off[i] += p->stride[i][k];
        if (++coord[k] < p->size[k]) break;
        for (int i = 0; i < p->num_inputs; i++) off[i] -= p->size[k] * p->stride[i][k];
        coord[k] = 0;
      }
    }
    y[o] = sum;
    for (int k = no - 1; k >= 0; k--) {
      for (int i = 0; i < p->num_inputs; i++) base[i] += p->stride[i][k];
      if (++coord[k] < p->size[k]) break;
      for (int i = 0; i < p->num_inputs; i++) base[i] -= p->size[k] * p->stride[i][k];
      coord[k] = 0;
    }
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(einsum, "Einsum", 0, 1, WNN_MAX_IO, 1, 1, WNN_ATTRS("equation"));
