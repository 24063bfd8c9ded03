/* Registry rows of the tensor ops (ops_tensor.inc): for each op, <sym>_attrs (a
 * NULL-terminated list of accepted attribute names), SPEC_<sym> (flags,
 * min_inputs, max_inputs, min_outputs, max_outputs), RUN_<sym> (its run
 * function, NULL for an alias) and, under WNN_WITH_REFERENCE, REF_<sym>.
 * Included only by registry.c, after its own rows; see there for examples. */

static const char *const shape_attrs[] = {"start", "end", NULL};
static const char *const cast_attrs[] = {"to", "saturate", NULL};
static const char *const constantofshape_attrs[] = {"value", NULL};
static const char *const split_attrs[] = {"axis", "num_outputs", NULL};
static const char *const dropout_attrs[] = {"seed", NULL};
static const char *const pad_attrs[] = {"mode", NULL};
static const char *const depthtospace_attrs[] = {"blocksize", "mode", NULL};
static const char *const spacetodepth_attrs[] = {"blocksize", NULL};
static const char *const scatter_attrs[] = {"axis", "reduction", NULL};
static const char *const scatternd_attrs[] = {"reduction", NULL};
static const char *const trilu_attrs[] = {"upper", NULL};
static const char *const topk_attrs[] = {"axis", "largest", "sorted", NULL};
static const char *const castlike_attrs[] = {"saturate", NULL};
static const char *const gathernd_attrs[] = {"batch_dims", NULL};
#define gatherelements_attrs axis_attrs
#define scatterelements_attrs scatter_attrs
#define onehot_attrs axis_attrs
#define squeeze_attrs no_attrs
#define unsqueeze_attrs no_attrs
#define size_attrs no_attrs
#define range_attrs no_attrs
#define gather_attrs axis_attrs
#define slice_attrs no_attrs
#define expand_attrs no_attrs
#define tile_attrs no_attrs

/* Squeeze's axes (input 1) is optional; Dropout's ratio and training_mode
 * inputs are optional, and its mask output is counted so that prepare can say
 * plainly that it is unsupported. */
#define SPEC_squeeze WNN_OP_ALIAS, 1, 2, 1, 1
#define SPEC_unsqueeze WNN_OP_ALIAS, 2, 2, 1, 1
#define SPEC_shape 0, 1, 1, 1, 1
#define SPEC_size 0, 1, 1, 1, 1
#define SPEC_cast 0, 1, 1, 1, 1
#define SPEC_constantofshape 0, 1, 1, 1, 1
#define SPEC_range 0, 3, 3, 1, 1
#define SPEC_gather 0, 2, 2, 1, 1
#define SPEC_slice 0, 3, 5, 1, 1
#define SPEC_split 0, 1, 2, 1, WNN_MAX_IO
#define SPEC_expand 0, 2, 2, 1, 1
#define SPEC_tile 0, 2, 2, 1, 1
#define SPEC_dropout WNN_OP_ALIAS, 1, 3, 1, 2
#define SPEC_pad 0, 2, 4, 1, 1
#define SPEC_depthtospace 0, 1, 1, 1, 1
#define SPEC_spacetodepth 0, 1, 1, 1, 1
#define SPEC_gatherelements 0, 2, 2, 1, 1
#define SPEC_scatterelements 0, 3, 3, 1, 1
#define SPEC_scatternd 0, 3, 3, 1, 1
#define SPEC_trilu 0, 1, 2, 1, 1
#define SPEC_onehot 0, 3, 3, 1, 1
#define SPEC_topk 0, 2, 2, 2, 2
#define SPEC_castlike 0, 2, 2, 1, 1
#define SPEC_gathernd 0, 2, 2, 1, 1

#define RUN_squeeze NULL
#define RUN_unsqueeze NULL
#define RUN_shape wnn_shape_run
#define RUN_size wnn_size_run
#define RUN_cast wnn_cast_run
#define RUN_constantofshape wnn_constantofshape_run
#define RUN_range wnn_range_run
#define RUN_gather wnn_gather_run
#define RUN_slice wnn_slice_run
#define RUN_split wnn_split_run
#define RUN_expand wnn_expand_run
#define RUN_tile wnn_tile_run
#define RUN_dropout NULL
#define RUN_pad wnn_pad_run
#define RUN_depthtospace wnn_depthtospace_run
#define RUN_spacetodepth wnn_spacetodepth_run
#define RUN_gatherelements wnn_gatherelements_run
#define RUN_scatterelements wnn_scatterelements_run
#define RUN_scatternd wnn_scatternd_run
#define RUN_trilu wnn_trilu_run
#define RUN_onehot wnn_onehot_run
#define RUN_topk wnn_topk_run
#define RUN_castlike wnn_castlike_run
#define RUN_gathernd wnn_gathernd_run

#ifdef WNN_WITH_REFERENCE
#define REF_squeeze NULL
#define REF_unsqueeze NULL
#define REF_shape wnn_ref_shape
#define REF_size wnn_ref_size
#define REF_cast wnn_ref_cast
#define REF_constantofshape wnn_ref_constantofshape
#define REF_range wnn_ref_range
#define REF_gather wnn_ref_gather
#define REF_slice wnn_ref_slice
#define REF_split wnn_ref_split
#define REF_expand wnn_ref_expand
#define REF_tile wnn_ref_tile
#define REF_dropout NULL
#define REF_pad wnn_ref_pad
#define REF_depthtospace wnn_ref_depthtospace
#define REF_spacetodepth wnn_ref_spacetodepth
#define REF_gatherelements wnn_ref_gatherelements
#define REF_scatterelements wnn_ref_scatterelements
#define REF_scatternd wnn_ref_scatternd
#define REF_trilu wnn_ref_trilu
#define REF_onehot wnn_ref_onehot
#define REF_topk wnn_ref_topk
#define REF_castlike wnn_ref_cast
#define REF_gathernd wnn_ref_gathernd
#endif
