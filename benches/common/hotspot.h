/* Hotspot's model, shared by both sides: one explicit step of the thermal equation on a
 * chip grid (Rodinia's hotspot, with round constants); cells on the border reuse their own
 * temperature for a missing neighbour. */
#ifndef CUPRITE_BENCH_HOTSPOT_H
#define CUPRITE_BENCH_HOTSPOT_H
#define HS_STEP_DIV_CAP 0.1f
#define HS_RX_1 1.0f
#define HS_RY_1 1.0f
#define HS_RZ_1 0.01f
#define HS_AMB 80.0f
#define HS_CELL(t, n, s, e, w, p)                                                           \
    ((t) + HS_STEP_DIV_CAP * ((p) + ((s) + (n) - 2.0f * (t)) * HS_RY_1 +                     \
                              ((e) + (w) - 2.0f * (t)) * HS_RX_1 + (HS_AMB - (t)) * HS_RZ_1))
#endif
