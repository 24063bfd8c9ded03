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
static const char *const cumsum_attrs[] = {"exclusive", "reverse", NULL};
static const char *const shrink_attrs[] = {"bias", "lambd", NULL};
static const char *const eyelike_attrs[] = {"dtype", "k", NULL};
static const char *const quantizelinear_attrs[] = {"axis", "block_size", "output_dtype",
                                                   "saturate", NULL};
static const char *const dequantizelinear_attrs[] = {"axis", "block_size", NULL};

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
#define reducelogsum_attrs reduce_attrs
#define hardmax_attrs math_axis_attrs
#define thresholdedrelu_attrs alpha_attrs
#define celu_attrs alpha_attrs
#define tan_attrs no_attrs
#define acos_attrs no_attrs
#define acosh_attrs no_attrs
#define asin_attrs no_attrs
#define asinh_attrs no_attrs
#define atan_attrs no_attrs
#define atanh_attrs no_attrs
#define cosh_attrs no_attrs
#define sinh_attrs no_attrs
#define dynamicquantizelinear_attrs no_attrs
static const char *const window_attrs[] = {"output_datatype", "periodic", NULL};
static const char *const bitshift_attrs[] = {"direction", NULL};
static const char *const mvn_attrs[] = {"axes", NULL};
static const char *const reversesequence_attrs[] = {"batch_axis", "time_axis", NULL};
#define hannwindow_attrs window_attrs
#define hammingwindow_attrs window_attrs
#define blackmanwindow_attrs window_attrs
#define det_attrs no_attrs
#define meanvariancenormalization_attrs mvn_attrs
#define compress_attrs math_axis_attrs
static const char *const dft_attrs[] = {"axis", "inverse", "onesided", NULL};
static const char *const stft_attrs[] = {"onesided", NULL};
static const char *const qconv_attrs[] = {"auto_pad", "dilations", "group", "kernel_shape",
                                          "pads", "strides", NULL};
#define matmulinteger_attrs no_attrs
#define qlinearmatmul_attrs no_attrs
#define convinteger_attrs qconv_attrs
#define qlinearconv_attrs qconv_attrs
static const char *const melweightmatrix_attrs[] = {"output_datatype", NULL};

/* flags, min_inputs, max_inputs, min_outputs, max_outputs */
#define SPEC_exp WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_log WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_sqrt WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_neg WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_abs WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_erf WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_tanh WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_reciprocal WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_floor WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_ceil WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_pow 0, 2, 2, 1, 1
#define SPEC_leakyrelu WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_prelu 0, 2, 2, 1, 1
#define SPEC_hardsigmoid WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_hardswish WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_elu WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_selu WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_softplus WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_softsign WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_sign WNN_OP_INPLACE, 1, 1, 1, 1
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
#define SPEC_gelu WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_sin WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_cos WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_round WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_isnan 0, 1, 1, 1, 1
#define SPEC_isinf 0, 1, 1, 1, 1
#define SPEC_reducelogsum 0, 1, 2, 1, 1
#define SPEC_cumsum 0, 2, 2, 1, 1
#define SPEC_hardmax 0, 1, 1, 1, 1
#define SPEC_thresholdedrelu 0, 1, 1, 1, 1
#define SPEC_shrink 0, 1, 1, 1, 1
#define SPEC_celu 0, 1, 1, 1, 1
#define SPEC_tan 0, 1, 1, 1, 1
#define SPEC_acos 0, 1, 1, 1, 1
#define SPEC_acosh 0, 1, 1, 1, 1
#define SPEC_asin 0, 1, 1, 1, 1
#define SPEC_asinh 0, 1, 1, 1, 1
#define SPEC_atan 0, 1, 1, 1, 1
#define SPEC_atanh 0, 1, 1, 1, 1
#define SPEC_cosh 0, 1, 1, 1, 1
#define SPEC_sinh 0, 1, 1, 1, 1
#define SPEC_eyelike 0, 1, 1, 1, 1
#define SPEC_quantizelinear 0, 2, 3, 1, 1
#define SPEC_dequantizelinear 0, 2, 3, 1, 1
#define SPEC_dynamicquantizelinear 0, 1, 1, 3, 3
#define SPEC_hannwindow 0, 1, 1, 1, 1
#define SPEC_hammingwindow 0, 1, 1, 1, 1
#define SPEC_blackmanwindow 0, 1, 1, 1, 1
#define SPEC_det 0, 1, 1, 1, 1
#define SPEC_bitshift 0, 2, 2, 1, 1
#define SPEC_meanvariancenormalization 0, 1, 1, 1, 1
#define SPEC_compress 0, 2, 2, 1, 1
#define SPEC_reversesequence 0, 2, 2, 1, 1
#define SPEC_dft 0, 1, 3, 1, 1
#define SPEC_stft 0, 2, 4, 1, 1
#define SPEC_matmulinteger 0, 2, 4, 1, 1
#define SPEC_qlinearmatmul 0, 8, 8, 1, 1
#define SPEC_convinteger 0, 2, 4, 1, 1
#define SPEC_qlinearconv 0, 8, 9, 1, 1
#define SPEC_melweightmatrix 0, 5, 5, 1, 1

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
#define RUN_reducelogsum wnn_reducelogsum_run
#define RUN_cumsum wnn_cumsum_run
#define RUN_hardmax wnn_hardmax_run
#define RUN_thresholdedrelu wnn_thresholdedrelu_run
#define RUN_shrink wnn_shrink_run
#define RUN_celu wnn_celu_run
#define RUN_tan wnn_tan_run
#define RUN_acos wnn_acos_run
#define RUN_acosh wnn_acosh_run
#define RUN_asin wnn_asin_run
#define RUN_asinh wnn_asinh_run
#define RUN_atan wnn_atan_run
#define RUN_atanh wnn_atanh_run
#define RUN_cosh wnn_cosh_run
#define RUN_sinh wnn_sinh_run
#define RUN_eyelike wnn_eyelike_run
#define RUN_quantizelinear wnn_quantizelinear_run
#define RUN_dequantizelinear wnn_dequantizelinear_run
#define RUN_dynamicquantizelinear wnn_dynamicquantizelinear_run
#define RUN_hannwindow wnn_hannwindow_run
#define RUN_hammingwindow wnn_hammingwindow_run
#define RUN_blackmanwindow wnn_blackmanwindow_run
#define RUN_det wnn_det_run
#define RUN_bitshift wnn_bitshift_run
#define RUN_meanvariancenormalization wnn_meanvariancenormalization_run
#define RUN_compress wnn_compress_run
#define RUN_reversesequence wnn_reversesequence_run
#define RUN_dft wnn_dft_run
#define RUN_stft wnn_stft_run
#define RUN_matmulinteger wnn_matmulinteger_run
#define RUN_qlinearmatmul wnn_qlinearmatmul_run
#define RUN_convinteger wnn_convinteger_run
#define RUN_qlinearconv wnn_qlinearconv_run
#define RUN_melweightmatrix wnn_melweightmatrix_run

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
/* The references of math_more.c and ReduceLogSum (src/ref/ref_more.c). */
#include "ops/more_internal.h"
#define REF_reducelogsum wnn_ref_reducelogsum
#define REF_cumsum wnn_ref_cumsum
#define REF_hardmax wnn_ref_hardmax
#define REF_thresholdedrelu wnn_ref_thresholdedrelu
#define REF_shrink wnn_ref_shrink
#define REF_celu wnn_ref_celu
#define REF_tan wnn_ref_tan
#define REF_acos wnn_ref_acos
#define REF_acosh wnn_ref_acosh
#define REF_asin wnn_ref_asin
#define REF_asinh wnn_ref_asinh
#define REF_atan wnn_ref_atan
#define REF_atanh wnn_ref_atanh
#define REF_cosh wnn_ref_cosh
#define REF_sinh wnn_ref_sinh
#define REF_eyelike wnn_ref_eyelike
#define REF_quantizelinear wnn_ref_quantizelinear
#define REF_dequantizelinear wnn_ref_dequantizelinear
#define REF_dynamicquantizelinear wnn_ref_dynamicquantizelinear
#define REF_hannwindow wnn_ref_hannwindow
#define REF_hammingwindow wnn_ref_hammingwindow
#define REF_blackmanwindow wnn_ref_blackmanwindow
#define REF_det wnn_ref_det
#define REF_bitshift wnn_ref_bitshift
#define REF_meanvariancenormalization wnn_ref_meanvariancenormalization
#define REF_compress wnn_ref_compress
#define REF_reversesequence wnn_ref_reversesequence
#define REF_dft wnn_ref_dft
#define REF_stft wnn_ref_stft
#define REF_matmulinteger wnn_ref_matmulinteger
#define REF_qlinearmatmul wnn_ref_qlinearmatmul
#define REF_convinteger wnn_ref_convinteger
#define REF_qlinearconv wnn_ref_qlinearconv
#define REF_melweightmatrix wnn_ref_melweightmatrix
#endif
