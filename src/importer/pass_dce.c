/* Dead-code elimination (passes.h). */
#include <stdlib.h>

#include "importer/passes.h"

void wnn_pass_dce(wnn_ir_graph *g, int *removed) {
  int count = 0;
  bool *needed = calloc((size_t)g->num_values + 1, 1);
  if (needed) {
    for (int k = 0; k < g->num_outputs; k++) needed[g->outputs[k]] = true;
    for (int i = g->num_nodes - 1; i >= 0; i--) {
      wnn_ir_node *n = &g->nodes[i];
      if (n->dead) continue;
      bool live = false;
      for (int k = 0; k < n->num_outputs; k++)
        if (n->outputs[k] >= 0 && needed[n->outputs[k]]) live = true;
      if (!live) {
        n->dead = true;
        count++;
        continue;
      }
      for (int k = 0; k < n->num_inputs; k++)
        if (n->inputs[k] >= 0) needed[n->inputs[k]] = true;
      for (int k = 0; k < n->num_guards; k++) needed[n->guards[k]] = true;
    }
    free(needed);
  }
  wnn_ir_count_readers(g);
  if (removed) *removed = count;
}
