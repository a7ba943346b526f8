; RAM of the cartridge AI. $0500-$05FF is the second player's playfield, unused in one-player
; games; the zero-page bytes are ones the game never reads or writes (checked by the ROM tests).
.include "ai.inc"

.segment "AI_ZEROPAGE"
z_t0:    .res 1
z_t1:    .res 1
z_t2:    .res 1
z_t3:    .res 1
z_t4:    .res 1
z_t5:    .res 1
z_t6:    .res 1
z_t7:    .res 1
z_cost:  .res 2
z_delta: .res 2
z_o:     .res 1     ; orientation of the placement at hand
z_x:     .res 1     ; its column
z_y:     .res 1     ; its landing row
z_rot:   .res 1     ; its rotation choice (0-3)
z_type:  .res 1     ; piece type being enumerated
z_lines: .res 1     ; lines the placement clears
z_ptr:   .res 2

.segment "AI_BSS"
base_lo:    .res ROWS   ; the board the piece spawns into
base_hi:    .res ROWS
base_h:     .res COLUMNS
base_f:     .res COLUMNS
eb_lo:      .res ROWS   ; the evaluation board: base, or base + a first-ply placement
eb_hi:      .res ROWS
eb_h:       .res COLUMNS
eb_f:       .res COLUMNS
eb_rowsum:  .res 2      ; sum of the row costs of eb
eb_colsum:  .res 2      ; sum of the hole and bump costs of eb
save_h:     .res COLUMNS
save_f:     .res COLUMNS
pm_lo:      .res 4      ; the placed piece's cells in rows y-2 .. y+1
pm_hi:      .res 4
grav_rows:  .res 11     ; row of the piece after m frames, m = 0..10

s_type:     .res 1      ; search input: the piece, the level state at its spawn, the hold
s_level:    .res 1
s_lines_lo: .res 1
s_lines_hi: .res 1
s_btype:    .res 1
s_hold:     .res 1
s_keep:     .res 1      ; K
s_ply:      .res 1      ; 1: first ply, 2: second ply (what a reachable placement is for)

cand_count:    .res 1
cand_rot:      .res K_MAX
cand_o:        .res K_MAX   ; orientation of the rotation choice
cand_x:        .res K_MAX
cand_y:        .res K_MAX
cand_lines:    .res K_MAX
cand_cost_lo:  .res K_MAX
cand_cost_hi:  .res K_MAX
cand_lcost_lo: .res K_MAX
cand_lcost_hi: .res K_MAX
best_lo:       .res 1   ; second ply: the best reply so far
best_hi:       .res 1
best_total_lo: .res 7   ; per preview type: the best total and the candidate it belongs to
best_total_hi: .res 7
best_k:        .res 7
stat_evals:    .res 2   ; placements evaluated (for the cost model)
