/* Registry rows of the nn ops (ops_nn.inc): for each op, <sym>_attrs (a
 * NULL-terminated list of accepted attribute names), SPEC_<sym> (flags,
 * min_inputs, max_inputs, min_outputs, max_outputs), RUN_<sym> (its run
 * function, NULL for an alias) and, under WNN_WITH_REFERENCE, REF_<sym>.
 * Included only by registry.c, after its own rows; see there for examples.
 * The references are declared in src/ops/nn_internal.h. */
#ifdef WNN_WITH_REFERENCE
#include "ops/nn_internal.h"
#include "ops/more_internal.h" /* the references of the loss ops, RNN, RoiAlign */
#endif

static const char *const batchnormalization_attrs[] = {"epsilon", "momentum", "training_mode",
                                                       NULL};
static const char *const instancenormalization_attrs[] = {"epsilon", NULL};
static const char *const layernormalization_attrs[] = {"axis", "epsilon", "stash_type", NULL};
static const char *const lrn_attrs[] = {"alpha", "beta", "bias", "size", NULL};
#define globalmaxpool_attrs no_attrs
static const char *const convtranspose_attrs[] = {
    "auto_pad", "dilations",    "group", "kernel_shape", "output_padding",
    "output_shape", "pads", "strides", NULL};
static const char *const resize_attrs[] = {"antialias",
                                           "axes",
                                           "coordinate_transformation_mode",
                                           "cubic_coeff_a",
                                           "exclude_outside",
                                           "extrapolation_value",
                                           "keep_aspect_ratio_policy",
                                           "mode",
                                           "nearest_mode",
                                           NULL};
static const char *const maxunpool_attrs[] = {"kernel_shape", "pads", "strides", NULL};
static const char *const einsum_attrs[] = {"equation", NULL};
static const char *const gridsample_attrs[] = {"align_corners", "mode", "padding_mode", NULL};
static const char *const loss_attrs[] = {"ignore_index", "reduction", NULL};
#define negativeloglikelihoodloss_attrs loss_attrs
#define softmaxcrossentropyloss_attrs loss_attrs
static const char *const roialign_attrs[] = {"coordinate_transformation_mode", "mode",
                                             "output_height", "output_width", "sampling_ratio",
                                             "spatial_scale", NULL};
static const char *const rnn_attrs[] = {"activation_alpha", "activation_beta", "activations",
                                        "clip", "direction", "hidden_size", "layout", NULL};
/* activation_alpha and activation_beta are accepted and unused: the
 * supported activations (Sigmoid, Tanh, Relu) take no parameters. */
static const char *const lstm_attrs[] = {"activation_alpha", "activation_beta", "activations",
                                         "clip", "direction", "hidden_size", "input_forget",
                                         "layout", NULL};
static const char *const gru_attrs[] = {"activation_alpha", "activation_beta", "activations",
                                        "clip", "direction", "hidden_size",
                                        "layout", "linear_before_reset", NULL};

/* flags, min_inputs, max_inputs, min_outputs, max_outputs */
#define SPEC_batchnormalization 0, 5, 5, 1, 3
#define SPEC_instancenormalization 0, 3, 3, 1, 1
#define SPEC_layernormalization 0, 2, 3, 1, 3
#define SPEC_lrn 0, 1, 1, 1, 1
#define SPEC_globalmaxpool 0, 1, 1, 1, 1
#define SPEC_convtranspose 0, 2, 3, 1, 1
#define SPEC_resize 0, 1, 4, 1, 1
#define SPEC_lstm 0, 3, 8, 1, 3
#define SPEC_gru 0, 3, 6, 1, 2
#define SPEC_gridsample 0, 2, 2, 1, 1
#define SPEC_maxunpool 0, 2, 3, 1, 1
#define SPEC_einsum 0, 1, WNN_MAX_IO, 1, 1
#define SPEC_negativeloglikelihoodloss 0, 2, 3, 1, 1
/* SoftmaxCrossEntropyLoss's second output is its optional log_prob. */
#define SPEC_softmaxcrossentropyloss 0, 2, 3, 1, 2
#define SPEC_rnn 0, 3, 6, 1, 2
#define SPEC_roialign 0, 3, 3, 1, 1

#define RUN_batchnormalization wnn_batchnormalization_run
#define RUN_instancenormalization wnn_instancenormalization_run
#define RUN_layernormalization wnn_layernormalization_run
#define RUN_lrn wnn_lrn_run
#define RUN_globalmaxpool wnn_globalmaxpool_run
#define RUN_convtranspose wnn_convtranspose_run
#define RUN_resize wnn_resize_run
#define RUN_lstm wnn_lstm_run
#define RUN_gru wnn_gru_run
#define RUN_gridsample wnn_gridsample_run
#define RUN_maxunpool wnn_maxunpool_run
#define RUN_einsum wnn_einsum_run
#define RUN_negativeloglikelihoodloss wnn_negativeloglikelihoodloss_run
#define RUN_softmaxcrossentropyloss wnn_softmaxcrossentropyloss_run
#define RUN_rnn wnn_rnn_run
#define RUN_roialign wnn_roialign_run

#ifdef WNN_WITH_REFERENCE
#define REF_batchnormalization wnn_ref_batchnormalization
#define REF_instancenormalization wnn_ref_instancenormalization
#define REF_layernormalization wnn_ref_layernormalization
#define REF_lrn wnn_ref_lrn
#define REF_globalmaxpool wnn_ref_globalmaxpool
#define REF_convtranspose wnn_ref_convtranspose
#define REF_resize wnn_ref_resize
#define REF_lstm wnn_ref_lstm
#define REF_gru wnn_ref_gru
#define REF_gridsample wnn_ref_gridsample
#define REF_maxunpool wnn_ref_maxunpool
#define REF_einsum wnn_ref_einsum
#define REF_negativeloglikelihoodloss wnn_ref_negativeloglikelihoodloss
#define REF_softmaxcrossentropyloss wnn_ref_softmaxcrossentropyloss
#define REF_rnn wnn_ref_rnn
#define REF_roialign wnn_ref_roialign
#endif
