; The evaluation of a placement on the evaluation board eb, incrementally from eb's caches (the
; C++ counterpart: ai-reference/ai/ai_eval.cpp). The row and column model is at the top of
; ai_place.s, which makes placements part of eb and holds the routines this one calls for a clear
; (toggle_piece, piece_cells).
.include "ai.inc"

.import ai_stack_growth     ; (ai_eval_clear.s)

.segment "AI_ZP_EVAL": zeropage
tg_entry:  .res 2       ; the orientation ai_load_target unpacked (the sweep's target): the entry
tg_dy2:    .res 1       ; of the evaluation's row blocks for its rows, its highest cell + 2, its
.segment "AI_ZEROPAGE": zeropage ; rows + 4 (the class count when every run lands between two
tg_classes: .res 1      ; empty cells) and per row (aligned with the last block) gen_halo's
.segment "AI_BSS"       ; entry + 2 for its run at column 0 (gen_row_halo)
tg_halo:   .res 4
rise_top:  .res 1       ; a rising piece's top row (ai_eval_placement)

; z_cost = cost of placing z_o at (z_x, z_y) on eb: lines cost + evaluation of the board it
; leaves, COST_MAX when a cell lands above the visible rows (from level 128 in the high rows too)
; or the crash rule bars the lock; z_lines = lines it clears; Z = 1.
; When it costs at least best_hi:best_lo (it could not be chosen: the search's bound), its
; evaluation stops there and it returns Z = 0 instead, z_cost not set: the caller skips it with
; one branch. eb is not changed. z_o's row data must be at hand (ai_load_target).
; ai_eval_on_board: the same for a placement that cannot top out, entered with Y = its top row
; (y + the highest cell).
.segment "AI_EVAL"           ; (asm/nestris.cfg: first in its region)
.proc ai_eval_placement
classes    = z_t4           ; class changes + 4 of the rows the piece covers; + $10 a full row
nb_lo      = z_s0           ; the rows: the run's filled neighbours, low byte
c0         = z_t5           ; the first column the piece covers
c1         = z_t6           ; one past its last
new_top    = z_t7           ; the covered columns: 22 - y
entry      = z_s0           ; the covered columns: the shape entry (X) kept
diff_lo    = z_s0           ; the stack and spawn: the low byte of a cost's change
window_end = z_t7           ; the gaps: b + 1, past the last column that sees new heights
    lda z_y
    clc
    adc tg_dy2              ; + the highest cell + 2
    cmp s_top2              ; (from level 128 the high rows too: the crash rule)
    bcs on_board
tops_out:
    ldx #$FF                ; tops out: COST_MAX, no lines
    stx z_cost
    stx z_cost+1
    inx                     ; (Z = 1: a cost)
    stx z_lines
    rts
on_board:
    ; Rows the piece covers, top down (one block each, entered at the first of its rows): class
    ; +1 (both neighbours of its run empty), 0 or -1 (both filled; the row fills up when it had
    ; 2 transitions). The count starts at +1 a row, the most common change: the rows where a
    ; neighbour is filled take theirs back. A row that fills up adds $10 (z_lines is set from it
    ; only when the evaluation goes on).
    sbc #2                  ; (C = 1) y + the highest cell: the top row
    tay
on_board_y:
    ldx tg_classes
    cpy eb_top08            ; its top above the highest of columns 0-8: the stack term grows
    bcc rising
rows:
    stx classes             ; class changes + 4, counted as +1 a row
    clc
    jmp (tg_entry)
    ; A piece in columns 0-8 (at most column 6, any orientation) whose top rises above their
    ; highest: the stack term's growth is known from its top row, before the columns, and the
    ; first bound takes it in. classes' bit 7 says so. (A piece in column 9 may have its top
    ; there: its growth is left to the columns.)
rising:
    lda z_x
    cmp #COLUMNS-3          ; (z_x = -1: $FF, not taken)
    bcs rows
    sty rise_top
    txa
    ora #$80
    tax
    bne rows                ; (always)
.repeat 4, J
.ident(.sprintf("filled%d", J)):
    jsr neighbour_filled
    jmp .ident(.sprintf("next%d", J))
.endrepeat
.repeat 4, J
.ident(.sprintf("row%d", J)):
    lda tg_halo+J           ; (C = 0, and it stays: the sum is below 256)
    adc z_x
    tax                     ; the run's two neighbours (gen_halo entry + 2)
    lda gen_halo_lo-2,x
    and eb_lo,y
    sta nb_lo
    lda gen_halo_hi-2,x
    and eb_hi,y
    ora nb_lo
    bne .ident(.sprintf("filled%d", J))
.ident(.sprintf("next%d", J)):
    iny
.endrepeat
    ldx classes
    cpx #$10
    bcc plain               ; no row filled up, no rise
    txa
    bpl to_clear            ; a row filled up
    and #$7F
    tax
    cpx #$10
    bcs to_clear
    ; a rise: base + row changes + the stack term's growth (the columns leave it be)
    lda eb_base             ; (C = 0)
    adc gen_row_delta_lo,x
    sta z_cost
    lda eb_base+1
    adc gen_row_delta_hi,x
    sta z_cost+1
    lda #20
    sec
    sbc rise_top            ; the piece's height, above eb_max08
    jsr ai_stack_growth
    jsr add_ax              ; (A = z_cost+1, C = 0: the cost is below $10000)
    jmp bound
to_clear:
    jmp with_clear

    ; The cost, built up from a lower bound (eb_base: holes, stack and spawn only grow when
    ; nothing is cleared): once the bound reaches the cost to beat (best), the placement cannot
    ; be chosen and its evaluation stops (Z = 0, z_cost not set).
    ; base + row changes
plain:
    lda eb_base             ; (C = 0: no line)
    adc gen_row_delta_lo,x
    sta z_cost
    lda eb_base+1
    adc gen_row_delta_hi,x
    sta z_cost+1
bound:
    cmp best_hi
    bcc rows_below
    jne pruned
    lda z_cost
    cmp best_lo
    jcs pruned
rows_below:
    ldy #0
    sty z_lines
    ; - the old hole costs of the covered columns c0 .. c1-1 through the prefix
    ; sums, + their new ones
    ldx z_o
    lda z_x                 ; (C = 0 from the bound's test)
    adc gen_shape_min_dx,x
    sta c0
    tay
    clc                     ; (z_x may be -1: the column sum carries)
    adc gen_shape_width,x
    sta c1
    lda z_cost              ; (C = 0: c1 <= 10)
    adc hp_lo,y
    sta z_cost
    lda z_cost+1
    adc hp_hi,y
    sta z_cost+1
    ldy c1
    lda z_cost
    sec
    sbc hp_lo,y
    sta z_cost
    lda z_cost+1
    sbc hp_hi,y
    sta z_cost+1
    ; the covered columns: holes and new heights, and with them the extremes (heights only
    ; grow when no line is cleared): max08 highest of 0-8, min08 lowest of the covered ones of
    ; 0-8, max38 highest of SPAWN_TERM_FIRST-8, well_h the well column
    lda #22
    sec
    sbc z_y
    sta new_top             ; 22 - y: a column's new height is this - (highest cell + 2)
    lda eb_max08
    sta max08
    lda #$FF
    sta min08
    lda eb_max38
    sta max38
    lda eb_h+9
    sta well_h
    lda z_o
    asl
    asl
    tax                     ; shape entry o*4 + j, j = column - c0
    ldy c0
column:
    lda gen_shape_column,x
    and #$03                ; lowest cell + 2
    eor #$FF
    adc new_top             ; 22 - y - (lowest + 2) - 1, C = 1 (C = 0 before: asl, cpy)
    sbc eb_f,y              ; holes = new height - (filled + cells)
    beq no_hole             ; (no hole costs nothing: gen_hole's first entry is 0, ai_eval.cpp)
    cpy #COLUMNS-1
    bne hole_count
    and s_well_holes        ; the well's: none in danger
    beq no_hole
hole_count:
    stx entry
    tax
    cpx #HOLE_LAST+1        ; (gen_hole stops where more holes cost the same)
    bcc :+
    ldx #HOLE_LAST
:
    lda gen_hole_lo,x
    clc
    adc z_cost
    sta z_cost
    lda gen_hole_hi,x
    adc z_cost+1
    sta z_cost+1
    ldx entry
no_hole:
    lda gen_shape_column,x
    lsr
    lsr                     ; highest cell + 2
    eor #$FF
    sec
    adc new_top             ; the new height
    sta gh+1,y              ; (for the gap term; put back before the return)
    cpy #9
    bcs well
    cmp max08
    bcc not_max
    sta max08
not_max:
    cmp min08
    bcs not_min
    sta min08
not_min:
    cpy #SPAWN_TERM_FIRST   ; (column 9 went to well above)
    bcc next_column
    cmp max38
    bcc next_column
    sta max38
    bcs next_column         ; (always)
well:
    sta well_h
next_column:
    inx
    iny
    cpy c1
    bne column
    lda z_cost+1
    cmp best_hi
    bcc holes_below
    jne pruned_gh
    lda z_cost
    cmp best_lo
    jcs pruned_gh
holes_below:
    ; the stack and spawn costs where the highest columns grew
    lda max08
    cmp eb_max08
    beq stack_same
    bit classes
    bmi stack_same          ; (a rise: the first bound added it)
    jsr ai_stack_growth
    jsr add_ax
stack_same:
    ldy max38
    ldx eb_max38
    cpy eb_max38
    beq spawn_same
    lda gen_spawn_lo,y
    sec
    sbc gen_spawn_lo,x
    sta diff_lo
    lda gen_spawn_hi,y
    sbc gen_spawn_hi,x
    tax
    lda diff_lo
    jsr add_ax
spawn_same:
    ; the lowest of 0-8: the covered ones and the uncovered ones left and right of them
    ldy c0
    lda pre_min,y
    cmp min08
    bcs left_higher
    sta min08
left_higher:
    ldy c1
    lda suf_min-1,y
    cmp min08
    bcs right_higher
    sta min08
right_higher:
    jsr ai_well_cost
    ; the gaps: columns a = max(c0 - 1, 0) .. b = min(c1, 8) see the new heights, the others
    ; keep their costs: + gp(9) - gp(b + 1) + gp(a), a lower bound until the window is added
    ldx c0
    beq a_known
    dex
a_known:
    ldy c1
    iny
    cpy #COLUMNS
    bcc b_known
    ldy #COLUMNS-1
b_known:
    sty window_end          ; b + 1
    lda z_cost
    clc
    adc gp_lo+COLUMNS-1
    sta z_cost
    lda z_cost+1
    adc gp_hi+COLUMNS-1
    sta z_cost+1
    lda z_cost
    sec
    sbc gp_lo,y
    sta z_cost
    lda z_cost+1
    sbc gp_hi,y
    sta z_cost+1
    lda z_cost
    clc
    adc gp_lo,x
    sta z_cost
    lda z_cost+1
    adc gp_hi,x
    sta z_cost+1
    cmp best_hi
    bcc window
    bne pruned_gh
    lda z_cost
    cmp best_lo
    bcs pruned_gh
window:
    lda gh,x                ; the lower neighbour (gh: the wall, then the columns) ...
    cmp gh+2,x
    bcc lower
    lda gh+2,x
lower:
    sec
    sbc gh+1,x              ; ... above the column
    bcc no_gap
    cmp #GAP_MIN_DEPTH
    bcc no_gap
    tay
    clamp_gap_y
    add_cost gen_gap
no_gap:
    inx
    cpx window_end
    bne window
; gh of the covered columns c0 .. c1 - 1 back to eb_h's (Z = 1).
restore_gh:
    ldy c0
restore:
    lda eb_h,y
    sta gh+1,y
    iny
    cpy c1
    bne restore
    rts
pruned_gh:
    jsr restore_gh
pruned:
    lda #$FF                ; (Z = 0: stopped at the bound)
    rts
; A run whose neighbours (gen_halo entry X - 2) in row Y are not both empty: the +1 counted for
; its row becomes 0 (one filled), or -1 (both filled) unless the row fills up (it had 2
; transitions: a full row's class is 0, as before). Returns C = 0.
neighbour_filled:
    dec classes
    lda nb_lo               ; (the row block's: the run's filled neighbours, low byte)
    cmp gen_halo_lo-2,x
    bne one
    lda gen_halo_hi-2,x
    and eb_hi,y
    cmp gen_halo_hi-2,x
    bne one
    lda eb_tr,y
    cmp #2
    bne fewer
    lda classes             ; the row is full
    adc #$10-1              ; (C = 1)
    sta classes             ; (C = 0)
    rts
fewer:
    dec classes
one:
    clc
    rts
; entries of the row blocks by the piece's rows: 4 rows start at row0, 1 at row3
row_entries:
    .addr row3, row2, row1, row0

; Lines cleared (rare: a few of the evaluations of a search, but each costs more than thirty
; that clear nothing): first a bound, the rows (eb's sum and the changes: a full row costs what an
; empty one does) + the lines' cost, to which the columns' terms only add. Past it, the placement
; is made in eb's rows for the moment (the columns are kept on the stack), the columns
; recomputed and evaluated in full, and everything put back.
with_clear:
    txa                     ; (classes)
    lsr
    lsr
    lsr
    lsr
    sta z_lines
    clc
    adc s_lines_off         ; the search's lines table
    tay                     ; (C = 0)
    txa
    and #$0F
    tax                     ; class changes + 4
    lda eb_rowsum
    adc gen_row_delta_lo,x
    sta z_cost
    lda eb_rowsum+1
    adc gen_row_delta_hi,x
    sta z_cost+1
    lda gen_lines_lo,y
    ldx gen_lines_hi,y
    jsr add_ax              ; (A = z_cost+1)
    cmp best_hi
    bcc past_clear_bound
    bne pruned
    lda z_cost
    cmp best_lo
    bcs pruned
past_clear_bound:           ; falls through into ai_eval_clear (ai_eval_clear.s, linked next:
.endproc                    ; its .assert checks it)
.export ai_eval_on_board := ai_eval_placement::on_board_y
.export ai_eval_tops_out := ai_eval_placement::tops_out
.export ai_eval_past_clear_bound := ai_eval_placement::past_clear_bound

; The row data of orientation z_o (and A) the evaluation uses (generated tables): the sweep loads
; its target's once, before the evaluations of its placements.
.segment "RAM_ai_load_target"
.proc ai_load_target
    tax
    lda gen_shape_min_dy2,x
    sta tg_dy2
    lda gen_row_classes,x
    sta tg_classes
    asl
    tay
    lda ai_eval_placement::row_entries-10,y
    sta tg_entry
    lda ai_eval_placement::row_entries-9,y
    sta tg_entry+1
    txa
    asl
    asl
    tay
    ldx #$100-4             ; (the loop's index runs from -4 to -1)
halo:
    lda gen_row_halo,y
    sta tg_halo+4-$100,x
    iny
    inx
    bne halo
    rts
.endproc
