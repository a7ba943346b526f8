; RAM of the cartridge AI: zero page the game never reads or writes but for its power-on clear,
; and the cartridge's PRG-RAM (asm/nestris.cfg; checked by the ROM tests).
;
; Segments, by role (asm/nestris.cfg places them): AI_ZEROPAGE ($1B-$32) scratch and the
; search's state; AI_ZP_SWEEP ($07-$13) the reachability sweep; AI_ZP_EVAL ($35-$3F) the
; evaluation's costs and target; AI_BSS (PRG_RAM_VARS, from $6080) the evaluation board, the
; coroutine; AI_BSS_SEARCH and AI_BSS_PLAN (PRG_RAM_CLEARED, $6000-$607F, cleared before every
; game) the search's candidates, the gap term's caches, the task, the plan and the driver. The
; modules' link order (asm/CMakeLists.txt) lays each one out.
;
; Glossary: the prefixes of the AI's names (asm/ and, where they have a counterpart, ai-reference/)
;   eb     the evaluation board: the board the search evaluates on (rows eb_lo/eb_hi, heights
;          eb_h, filled cells eb_f, row transitions eb_tr) and its caches (eb_base, eb_max08, ...)
;   hp     hole prefix: the hole costs of columns 0 .. c-1 (hp_lo/hp_hi)
;   gp     gap prefix: the gap costs of columns 0 .. c-1 (gp_lo/gp_hi)
;   gh     gap heights: the heights the gap term sees (the left wall, then columns 0-9)
;   pm     piece masks: a piece's cells in its rows (ai_piece_masks)
;   tg     target: the orientation ai_load_target unpacked, the sweep's target
;   lc     lines cost: the cost of the lines a placement clears (lc_lo, lc_hi)
;   sw     sweep: reachability's walk of the input schedule (ai_reach.s)
;   sh     shape: the orientation at hand in the sweep (set_shape)
;   s_     the search's inputs and settings (s_type, s_level, s_ply, s_keep, ...)
;   z_     zero-page scratch (z_t0-z_t7, z_s0/z_s1) and the placement at hand (z_o, z_x, z_y, ...)
;   cand   the first ply's candidates, the K best placements (cand_x, cand_cost_lo, ...)
;   ply2   the second ply: the replies for each piece the preview may show
;   pre/suf prefix and suffix minima of the column heights (pre_min, suf_min)
;   co     the coroutine (co_sp, co_len, co_buf: ai_coroutine.s)
;   drv    the input driver (ai_driver.s)
;   plan   the plan the driver follows, in two slots (ai_task.s: publish)
;   fin    finishing a search cut short at a spawn (ai_task.s: late_spawn, finish_late)
;   pred   prediction: the board the search ahead assumes (pred_sum)
;   K      the number of first-ply candidates kept (s_keep; K_MAX of ai_constants.inc)
;   lo/hi  the low and high bytes of 16-bit values kept in two arrays
.include "ai.inc"

.segment "AI_ZEROPAGE": zeropage
; Scratch bytes, used only through names: each routine names in its .proc what they hold there;
; a value one routine hands another has one name for both (ai.inc says where).
; read_or_check reads z_t0-z_t3 as one 4-byte array: they stay adjacent, in this order.
z_t0:    .res 1
z_t1:    .res 1
z_t2:    .res 1
z_t3:    .res 1
z_t4:    .res 1
z_t5:    .res 1
z_t6:    .res 1
z_t7:    .res 1
z_s0:    .res 1     ; scratch of the innermost helpers
z_s1:    .res 1
; The placement at hand: z_rot .. z_cost+1 stay adjacent, in the order of the candidate fields
; (cand_rot .. cand_cost_hi): ai_take_evaluated copies them in one loop.
z_rot:   .res 1     ; its rotation slot (0-3)
z_x:     .res 1     ; its column
z_y:     .res 1     ; its landing row
z_lines: .res 1     ; lines the placement clears
z_cost:  .res 2
z_o:     .res 1     ; its orientation
z_type:  .res 1     ; piece type being enumerated
s_ply:   .res 1     ; 1: first ply, 2: second ply, 0: hate mode (what a reachable placement is for)
s_keep:  .res 1     ; K
ply2_k:  .res 1     ; the candidate whose replies are searched
lc_lo:   .res 1     ; its lines cost (COST_MAX when it tops out); the high byte in AI_ZP_EVAL

.segment "AI_BSS"
eb_top08: .res 1    ; 20 - eb_max08 (ai_eval_placement's test of a rising piece)
eb_lo:      .res ROWS   ; the evaluation board: rows (bit c = column c), row 0 at the top
eb_hi:      .res ROWS
eb_hwall:   .res 1      ; ROWS: the left wall as a column left of eb_h (the gap term reads it)
eb_h:       .res COLUMNS ; column heights (0-20)
eb_f:       .res COLUMNS ; filled cells per column
eb_tr:      .res ROWS   ; transitions of each row (the row cost index)
eb_rowsum:  .res 2      ; sum of the row costs
hp_lo:      .res COLUMNS+1 ; hole costs of columns 0 .. c-1, for c = 0..10
hp_hi:      .res COLUMNS+1
pre_min:    .res COLUMNS ; lowest of columns 0 .. c-1 (of 0-8; $FF: none), for c = 0..9
suf_min:    .res COLUMNS ; lowest of columns c .. 8 ($FF: none), for c = 1..10 at c-1
gh:         .res COLUMNS+1 ; heights seen by the gap term: the left wall (20), then columns 0-9
                        ; (eb_h's, but for the columns a placement covers while it is evaluated)
gp_lo:      .res COLUMNS ; gap costs of columns 0 .. c-1, for c = 0..9
gp_hi:      .res COLUMNS
EB_SAVED_SIZE = * - eb_top08 ; eb_top08 .. gp_hi
.assert EB_SAVED_SIZE < 256, error, "save_spawn_board counts eb's saved bytes in X"

.segment "AI_BSS_SAVED"      ; (AI_RAM7, in the console)
eb_saved:   .res EB_SAVED_SIZE ; eb's rows, columns and caches (eb_top08 .. gp_hi, and eb_base ..
eb_saved_zp: .res 4     ; eb_max38 in the zero page) as the second ply began: each candidate is
                        ; taken off by copying them back (ai_place.s, restore_spawn_board)

.segment "AI_BSS"
pm_lo:      .res 4      ; a piece's cells in its rows y-2 .. y+1 (ai_piece_masks)
pm_hi:      .res 4

s_type:     .res 1      ; search input: the piece, the level state at its spawn, the hold
s_level:    .res 1
s_lines_lo: .res 1
s_lines_hi: .res 1
s_btype:    .res 1
s_hold:     .res 1      ; bit 7: the hold before a game's first piece (autorepeatY as the game has it)

.segment "AI_ZP_EVAL": zeropage
eb_base:    .res 2      ; row sum + hole sum + stack, spawn and lines cost of no line: the start
                        ; of every cost
eb_max08:   .res 1      ; highest of columns 0-8
eb_max38:   .res 1      ; highest of columns SPAWN_TERM_FIRST-8
best_lo:    .res 1      ; the cost to beat (second ply: the best reply so far)
best_hi:    .res 1
lc_hi:      .res 1      ; the lines cost's high byte (lc_lo)

.segment "AI_ZP_SWEEP": zeropage
s_well_holes: .res 1    ; the well column's hole count mask: $FF, or 0 in danger (its holes free)

.segment "AI_BSS_SEARCH"      ; (PRG_RAM_CLEARED)
s_stack_off: .res 1     ; the stack term's table: 0, or STACK_FAST_OFFSET at one row a frame
s_lines_off: .res 1     ; the lines term's table: 0, LINES_DANGER_OFFSET in danger, LINES_FAST_OFFSET at one row a frame
s_top2:     .res 1      ; the highest row a placement's top may take, + 2 (lower: a top-out)

cand_count:    .res 1
cand_rot:      .res K_MAX
cand_x:        .res K_MAX
cand_y:        .res K_MAX
cand_lines:    .res K_MAX
cand_cost_lo:  .res K_MAX
cand_cost_hi:  .res K_MAX
best_total_lo: .res PIECE_TYPES   ; per preview type: the best total and the candidate it belongs to
best_total_hi: .res PIECE_TYPES
best_k:        .res PIECE_TYPES
ply2_first:    .res 1            ; the second ply's reply types: ply2_first .. ply2_end - 1
ply2_end:      .res 1
eb_state:      .res 1            ; EB_SPAWN: eb is the board the search began from; EB_CANDIDATE:
                                 ; with candidate ply2_k on it; EB_CHANGING: in between
