/* Linked into Rodinia's backprop with -Wl,--wrap=bpnn_free: backprop prints no result,
   so print a digest of the trained weights before the network is freed. */
#include <stdio.h>
#include "backprop.h"
void __real_bpnn_free(BPNN *net);
void __wrap_bpnn_free(BPNN *net) {
  double s = 0, a = 0;
  for (int i = 0; i <= net->input_n; i++)
    for (int j = 0; j <= net->hidden_n; j++) { s += net->input_weights[i][j]; a += net->input_prev_weights[i][j]; }
  printf("input_weights sum %.6e prev %.6e\n", s, a);
  for (int j = 0; j <= net->hidden_n; j++)
    for (int k = 0; k <= net->output_n; k++) printf("hidden_weights[%d][%d] %.6e\n", j, k, net->hidden_weights[j][k]);
  for (int i = 0; i <= net->input_n && i < 8; i++) printf("input_weights[%d][1] %.6e\n", i, net->input_weights[i][1]);
  __real_bpnn_free(net);
}
