/* Registry rows of the math ops (ops_math.inc): for each op, <sym>_attrs (a
 * NULL-terminated list of accepted attribute names), SPEC_<sym> (flags,
 * min_inputs, max_inputs, min_outputs, max_outputs), RUN_<sym> (its run
 * function, NULL for an alias) and, under WNN_WITH_REFERENCE, REF_<sym>.
 * Included only by registry.c, after its own rows; see there for examples. */

static const char *const alpha_attrs[] = {"alpha", NULL};
static const char *const alpha_beta_attrs[] = {"alpha", "beta", NULL};
static const char *const selu_attrs[] = {"alpha", "gamma", NULL};
static const char *const math_axis_attrs[] = {"axis", NULL};
static const char *const mod_attrs[] = {"fmod", NULL};
static const char *const gelu_attrs[] = {"approximate", NULL};
static const char *const isinf_attrs[] = {"detect_negative", "detect_positive", NULL};
static const char *const argreduce_attrs[] = {"axis", "keepdims", "select_last_index", NULL};
static const char *const reduce_attrs[] = {"keepdims", "noop_with_empty_axes", NULL};

#define exp_attrs no_attrs
#define log_attrs no_attrs
#define sqrt_attrs no_attrs
#define neg_attrs no_attrs
#define abs_attrs no_attrs
#define erf_attrs no_attrs
#define tanh_attrs no_attrs
#define reciprocal_attrs no_attrs
#define floor_attrs no_attrs
#define ceil_attrs no_attrs
#define pow_attrs no_attrs
#define leakyrelu_attrs alpha_attrs
#define prelu_attrs no_attrs
#define hardsigmoid_attrs alpha_beta_attrs
#define hardswish_attrs no_attrs
#define elu_attrs alpha_attrs
#define selu_attrs selu_attrs
#define softplus_attrs no_attrs
#define softsign_attrs no_attrs
#define sign_attrs no_attrs
#define min_attrs no_attrs
#define max_attrs no_attrs
#define sum_attrs no_attrs
#define mean_attrs no_attrs
#define logsoftmax_attrs math_axis_attrs
#define reducemean_attrs reduce_attrs
#define reducesum_attrs reduce_attrs
#define reducemax_attrs reduce_attrs
#define reducemin_attrs reduce_attrs
#define reduceprod_attrs reduce_attrs
#define reducesumsquare_attrs reduce_attrs
#define reducel1_attrs reduce_attrs
#define reducel2_attrs reduce_attrs
#define reducelogsumexp_attrs reduce_attrs
#define argmax_attrs argreduce_attrs
#define argmin_attrs argreduce_attrs
#define equal_attrs no_attrs
#define less_attrs no_attrs
#define lessorequal_attrs no_attrs
#define greater_attrs no_attrs
#define greaterorequal_attrs no_attrs
#define not_attrs no_attrs
#define and_attrs no_attrs
#define or_attrs no_attrs
#define xor_attrs no_attrs
#define where_attrs no_attrs
#define mod_attrs mod_attrs
#define gelu_attrs gelu_attrs
#define sin_attrs no_attrs
#define cos_attrs no_attrs
#define round_attrs no_attrs
#define isnan_attrs no_attrs
#define isinf_attrs isinf_attrs

/* flags, min_inputs, max_inputs, min_outputs, max_outputs */
#define SPEC_exp 0, 1, 1, 1, 1
#define SPEC_log 0, 1, 1, 1, 1
#define SPEC_sqrt 0, 1, 1, 1, 1
#define SPEC_neg 0, 1, 1, 1, 1
#define SPEC_abs 0, 1, 1, 1, 1
#define SPEC_erf 0, 1, 1, 1, 1
#define SPEC_tanh 0, 1, 1, 1, 1
#define SPEC_reciprocal 0, 1, 1, 1, 1
#define SPEC_floor 0, 1, 1, 1, 1
#define SPEC_ceil 0, 1, 1, 1, 1
#define SPEC_pow 0, 2, 2, 1, 1
#define SPEC_leakyrelu 0, 1, 1, 1, 1
#define SPEC_prelu 0, 2, 2, 1, 1
#define SPEC_hardsigmoid 0, 1, 1, 1, 1
#define SPEC_hardswish 0, 1, 1, 1, 1
#define SPEC_elu 0, 1, 1, 1, 1
#define SPEC_selu 0, 1, 1, 1, 1
#define SPEC_softplus 0, 1, 1, 1, 1
#define SPEC_softsign 0, 1, 1, 1, 1
#define SPEC_sign 0, 1, 1, 1, 1
#define SPEC_min 0, 1, WNN_MAX_IO, 1, 1
#define SPEC_max 0, 1, WNN_MAX_IO, 1, 1
#define SPEC_sum 0, 1, WNN_MAX_IO, 1, 1
#define SPEC_mean 0, 1, WNN_MAX_IO, 1, 1
#define SPEC_logsoftmax 0, 1, 1, 1, 1
#define SPEC_reducemean 0, 1, 2, 1, 1
#define SPEC_reducesum 0, 1, 2, 1, 1
#define SPEC_reducemax 0, 1, 2, 1, 1
#define SPEC_reducemin 0, 1, 2, 1, 1
#define SPEC_reduceprod 0, 1, 2, 1, 1
#define SPEC_reducesumsquare 0, 1, 2, 1, 1
#define SPEC_reducel1 0, 1, 2, 1, 1
#define SPEC_reducel2 0, 1, 2, 1, 1
#define SPEC_reducelogsumexp 0, 1, 2, 1, 1
#define SPEC_argmax 0, 1, 1, 1, 1
#define SPEC_argmin 0, 1, 1, 1, 1
#define SPEC_equal 0, 2, 2, 1, 1
#define SPEC_less 0, 2, 2, 1, 1
#define SPEC_lessorequal 0, 2, 2, 1, 1
#define SPEC_greater 0, 2, 2, 1, 1
#define SPEC_greaterorequal 0, 2, 2, 1, 1
#define SPEC_not 0, 1, 1, 1, 1
#define SPEC_and 0, 2, 2, 1, 1
#define SPEC_or 0, 2, 2, 1, 1
#define SPEC_xor 0, 2, 2, 1, 1
#define SPEC_where 0, 3, 3, 1, 1
#define SPEC_mod 0, 2, 2, 1, 1
#define SPEC_gelu 0, 1, 1, 1, 1
#define SPEC_sin 0, 1, 1, 1, 1
#define SPEC_cos 0, 1, 1, 1, 1
#define SPEC_round 0, 1, 1, 1, 1
#define SPEC_isnan 0, 1, 1, 1, 1
#define SPEC_isinf 0, 1, 1, 1, 1

#define RUN_exp wnn_exp_run
#define RUN_log wnn_log_run
#define RUN_sqrt wnn_sqrt_run
#define RUN_neg wnn_neg_run
#define RUN_abs wnn_abs_run
#define RUN_erf wnn_erf_run
#define RUN_tanh wnn_tanh_run
#define RUN_reciprocal wnn_reciprocal_run
#define RUN_floor wnn_floor_run
#define RUN_ceil wnn_ceil_run
#define RUN_pow wnn_pow_run
#define RUN_leakyrelu wnn_leakyrelu_run
#define RUN_prelu wnn_prelu_run
#define RUN_hardsigmoid wnn_hardsigmoid_run
#define RUN_hardswish wnn_hardswish_run
#define RUN_elu wnn_elu_run
#define RUN_selu wnn_selu_run
#define RUN_softplus wnn_softplus_run
#define RUN_softsign wnn_softsign_run
#define RUN_sign wnn_sign_run
#define RUN_min wnn_min_run
#define RUN_max wnn_max_run
#define RUN_sum wnn_sum_run
#define RUN_mean wnn_mean_run
#define RUN_logsoftmax wnn_logsoftmax_run
#define RUN_reducemean wnn_reducemean_run
#define RUN_reducesum wnn_reducesum_run
#define RUN_reducemax wnn_reducemax_run
#define RUN_reducemin wnn_reducemin_run
#define RUN_reduceprod wnn_reduceprod_run
#define RUN_reducesumsquare wnn_reducesumsquare_run
#define RUN_reducel1 wnn_reducel1_run
#define RUN_reducel2 wnn_reducel2_run
#define RUN_reducelogsumexp wnn_reducelogsumexp_run
#define RUN_argmax wnn_argmax_run
#define RUN_argmin wnn_argmin_run
#define RUN_equal wnn_equal_run
#define RUN_less wnn_less_run
#define RUN_lessorequal wnn_lessorequal_run
#define RUN_greater wnn_greater_run
#define RUN_greaterorequal wnn_greaterorequal_run
#define RUN_not wnn_not_run
#define RUN_and wnn_and_run
#define RUN_or wnn_or_run
#define RUN_xor wnn_xor_run
#define RUN_where wnn_where_run
#define RUN_mod wnn_mod_run
#define RUN_gelu wnn_gelu_run
#define RUN_sin wnn_sin_run
#define RUN_cos wnn_cos_run
#define RUN_round wnn_round_run
#define RUN_isnan wnn_isnan_run
#define RUN_isinf wnn_isinf_run

#ifdef WNN_WITH_REFERENCE
#define REF_exp wnn_ref_exp
#define REF_log wnn_ref_log
#define REF_sqrt wnn_ref_sqrt
#define REF_neg wnn_ref_neg
#define REF_abs wnn_ref_abs
#define REF_erf wnn_ref_erf
#define REF_tanh wnn_ref_tanh
#define REF_reciprocal wnn_ref_reciprocal
#define REF_floor wnn_ref_floor
#define REF_ceil wnn_ref_ceil
#define REF_pow wnn_ref_pow
#define REF_leakyrelu wnn_ref_leakyrelu
#define REF_prelu wnn_ref_prelu
#define REF_hardsigmoid wnn_ref_hardsigmoid
#define REF_hardswish wnn_ref_hardswish
#define REF_elu wnn_ref_elu
#define REF_selu wnn_ref_selu
#define REF_softplus wnn_ref_softplus
#define REF_softsign wnn_ref_softsign
#define REF_sign wnn_ref_sign
#define REF_min wnn_ref_min
#define REF_max wnn_ref_max
#define REF_sum wnn_ref_sum
#define REF_mean wnn_ref_mean
#define REF_logsoftmax wnn_ref_logsoftmax
#define REF_reducemean wnn_ref_reducemean
#define REF_reducesum wnn_ref_reducesum
#define REF_reducemax wnn_ref_reducemax
#define REF_reducemin wnn_ref_reducemin
#define REF_reduceprod wnn_ref_reduceprod
#define REF_reducesumsquare wnn_ref_reducesumsquare
#define REF_reducel1 wnn_ref_reducel1
#define REF_reducel2 wnn_ref_reducel2
#define REF_reducelogsumexp wnn_ref_reducelogsumexp
#define REF_argmax wnn_ref_argmax
#define REF_argmin wnn_ref_argmin
#define REF_equal wnn_ref_equal
#define REF_less wnn_ref_less
#define REF_lessorequal wnn_ref_lessorequal
#define REF_greater wnn_ref_greater
#define REF_greaterorequal wnn_ref_greaterorequal
#define REF_not wnn_ref_not
#define REF_and wnn_ref_and
#define REF_or wnn_ref_or
#define REF_xor wnn_ref_xor
#define REF_where wnn_ref_where
#define REF_mod wnn_ref_mod
#define REF_gelu wnn_ref_gelu
#define REF_sin wnn_ref_sin
#define REF_cos wnn_ref_cos
#define REF_round wnn_ref_round
#define REF_isnan wnn_ref_isnan
#define REF_isinf wnn_ref_isinf
#endif
