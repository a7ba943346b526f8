; Placing a piece on the evaluation board eb: the cost of a placement (evaluated incrementally
; from eb's caches; eb is left unchanged), making a first-ply candidate part of eb and undoing it.
;
; Rows (12 bits: bit 0 the left wall, bit c+1 column c, bit 11 the right wall): every row of a
; tetromino is one run of cells landing in empty cells, so a row's transitions change only at the
; run's two ends: t' = t + 2 - 2 * (left neighbour filled + right neighbour filled), the walls
; being filled; the row is full exactly when t' = 0. Row costs are linear in the class, so the
; placement's row cost is its count of class changes times the step (one table entry).
; Columns: the covered columns' old hole costs leave through the prefix sums, their new ones are
; looked up; the lowest of columns 0-8 outside the piece comes from prefix and suffix minima.
.include "ai.inc"

.segment "AI_ZEROPAGE35": zeropage
tg_entry:  .res 2       ; the orientation ai_load_target unpacked (the sweep's target): the entry
tg_dy2:    .res 1       ; of the evaluation's row blocks for its rows, its highest cell + 2, its
.segment "AI_ZEROPAGE": zeropage ; rows + 4 (the class count when every run lands between two
tg_classes: .res 1      ; empty cells) and per row (aligned with the last block) gen_halo's
.segment "AI_BSS"       ; entry + 2 for its run at column 0 (gen_row_halo)
tg_halo:   .res 4

; Handed from or_piece to apply_rows and ai_apply_placement in a scratch byte:
dropped    = z_t6           ; the piece's cells above the visible rows (left out of eb)

; z_cost = cost of placing z_o at (z_x, z_y) on eb: lines cost + evaluation of the board it
; leaves, COST_MAX when a cell lands above the visible rows; z_lines = lines it clears; Z = 1.
; When it costs at least best_hi:best_lo (it could not be chosen: the search's bound), its
; evaluation stops there and it returns Z = 0 instead, z_cost not set: the caller skips it with
; one branch. eb is not changed. z_o's row data must be at hand (ai_load_target).
; ai_eval_on_board: the same for a placement that cannot top out, entered with Y = its top row
; (y + the highest cell).
.segment "PACK_ai_eval_placement"
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
    cmp #2
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
    stx classes             ; class changes + 4, counted as +1 a row
    clc
    jmp (tg_entry)
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
    jcs with_clear          ; a row filled up

    ; The cost, built up from a lower bound (eb_base: holes, stack and spawn only grow when
    ; nothing is cleared): once the bound reaches the cost to beat (best), the placement cannot
    ; be chosen and its evaluation stops (Z = 0, z_cost not set).
    ; base + row changes
    lda eb_base             ; (C = 0: no line)
    adc gen_row_delta_lo,x
    sta z_cost
    lda eb_base+1
    adc gen_row_delta_hi,x
    sta z_cost+1
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
    cpy #COLUMNS-1
    bne hole_count
    and s_well_holes        ; the well's: none in danger
hole_count:
    stx entry
    tax
    lda gen_hole_lo,x
    clc
    adc z_cost
    sta z_cost
    lda gen_hole_hi,x
    adc z_cost+1
    sta z_cost+1
    ldx entry
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
    clc
    adc s_stack_off
    tay
    lda eb_max08
    adc s_stack_off         ; (C = 0: indices < 42)
    tax
    lda gen_stack_lo,y
    sec
    sbc gen_stack_lo,x
    sta diff_lo
    lda gen_stack_hi,y
    sbc gen_stack_hi,x
    tax
    lda diff_lo
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
    add_cost gen_gap
no_gap:
    inx
    cpx window_end
    bne window
    jmp restore_gh
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
    lda gen_halo_lo-2,x
    and eb_lo,y
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
; gh of the covered columns c0 .. c1 - 1 back to eb_h's.
restore_gh:
    ldy c0
restore:
    lda eb_h,y
    sta gh+1,y
    iny
    cpy c1
    bne restore
    rts

; Lines cleared (rare: a few of the evaluations of a search, but each costs more than thirty
; that clear nothing): first a bound, the rows (eb's sum and the changes: a full row costs what an
; empty one does) + the lines' cost, to which the columns' terms only add. Past it, the placement
; is made in eb's rows for the moment (the undo record of a candidate applied meanwhile, and the
; columns, are kept on the stack), the columns recomputed and evaluated in full, and everything
; put back.
with_clear:
    txa                     ; (classes)
    lsr
    lsr
    lsr
    lsr
    sta z_lines
    tay
    lda s_level             ; a lock whose score frame may crash the game (its spawn level in
    sec                     ; the band of its count of lines, gen_crash) is a top-out
    sbc gen_crash_first-1,y
    cmp #CRASH_BAND_LEVELS
    jcc tops_out
    tya
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
    bcc clear_below
    jne pruned
    lda z_cost
    cmp best_lo
    jcs pruned
clear_below:
    ldx #COLUMNS-1
save:
    lda eb_h,x
    pha
    dex
    bpl save
    jsr ai_piece_masks
    jsr or_piece            ; the full rows stay where they are
    clc
    jsr piece_cells         ; eb_f: + the piece's cells (the cleared rows' are taken below)
    jsr heights_after_clear
    jsr cleared_columns_cost
    jsr remove_piece
    sec
    jsr piece_cells         ; eb_f back
    ldx #0
unsave:
    pla
    sta eb_h,x
    inx
    cpx #COLUMNS
    bne unsave
    rts
.endproc
.export ai_eval_on_board := ai_eval_placement::on_board_y

; eb_f of every column + A, then the piece z_o at (z_x, z_y) adds its cells to its columns
; (C = 0) or takes them away (C = 1).
.segment "PACK_adjust_filled"
.proc adjust_filled
added      = z_s1           ; A: what every column's eb_f gets
    php
    sta added
    ldx #COLUMNS-1
all:
    lda eb_f,x
    clc
    adc added
    sta eb_f,x
    dex
    bpl all
    plp
.endproc
; fall through
; The piece z_o at (z_x, z_y) adds its cells to its columns' eb_f (C = 0) or takes them away
; (C = 1).
.proc piece_cells
columns_left = z_t5         ; the piece's columns still to go
taking     = z_s1           ; bit 7: the cells are taken away (C = 1)
top_plus2  = z_s0           ; the column's highest cell + 2,
cells_less1 = z_s0          ; then its cells - 1
    php
    ldx z_o
    lda gen_shape_width,x
    sta columns_left
    lda z_x
    clc
    adc gen_shape_min_dx,x
    tay                     ; c0
    txa
    asl
    asl
    tax                     ; shape entry o*4
    plp
    ror taking              ; bit 7: take
column:
    lda gen_shape_column,x
    lsr
    lsr
    sta top_plus2           ; highest cell + 2
    lda gen_shape_column,x
    and #$03                ; lowest cell + 2
    sec
    sbc top_plus2
    sta cells_less1         ; cells - 1
    bit taking
    bmi take
    sec
    adc eb_f,y              ; (eb_f may be "negative" for the moment: the rows were taken first)
    jmp store
take:
    lda eb_f,y
    clc
    sbc cells_less1
store:
    sta eb_f,y
    inx
    iny
    dec columns_left
    bne column
    rts
.endproc

; Makes the placement z_o at (z_x, z_y) part of eb: cells above the visible rows are dropped,
; full rows removed (remembered in ud_rows for the undo), columns and caches rebuilt.
; z_lines = lines cleared (0 when it tops out: nothing is cleared then, as in the reference).
.segment "PACK_ai_apply_placement"
.proc ai_apply_placement
    jsr apply_rows
    lda dropped
    bne recount             ; cells dropped above the visible rows: count the columns again
    lda z_lines
    eor #$FF
    sec
    adc #0
    clc
    jsr adjust_filled
    jsr ai_top_row
    lda #0                  ; (the full rows are gone)
    jsr ai_heights_from_rows
    jmp ai_board_caches
recount:
    jmp ai_prepare_board
.endproc

; The rows of ai_apply_placement only (pm holds the piece's cells afterwards, dropped what or_piece
; left out).
.segment "PACK_apply_rows"
.proc apply_rows
    jsr ai_piece_masks
    lda #0
    sta z_lines
    sta ud_count
    jsr or_piece
    lda dropped
    bne rebuild
    ldx #ROWS-1             ; remove full rows, moving the rows above down
    ldy #ROWS-1
compact:
    lda eb_lo,x
    cmp #$FF
    bne keep
    lda eb_hi,x
    cmp #$0F
    bne keep
    txa
    ldx z_lines
    sta ud_rows,x
    tax
    inc z_lines
    jmp skip
keep:
    lda eb_lo,x
    sta eb_lo,y
    lda eb_hi,x
    sta eb_hi,y
    dey
skip:
    dex
    bpl compact
    lda z_lines
    sta ud_count
fill:
    cpy #$FF
    beq rebuild
    lda #$01                ; an empty row: the walls
    sta eb_lo,y
    lda #$08
    sta eb_hi,y
    dey
    jmp fill
rebuild:
    rts
.endproc

; Takes the placement z_o at (z_x, z_y) out of eb again after ai_apply_placement: the cleared
; rows (they were full) go back in their places, then the piece's cells are removed.
.segment "PACK_ai_undo_placement"
.proc ai_undo_placement
    jsr ai_piece_masks
    jsr undo_rows
    ldx z_o
    lda z_y
    clc
    adc gen_shape_min_dy2,x
    cmp #2
    bcc recount             ; it had cells above the visible rows: count the columns again
    lda ud_count
    sec                     ; the piece's cells go
    jsr adjust_filled
    lda #0
    tay                     ; (the board's top is not known: from row 0)
    jsr ai_heights_from_rows
    jmp ai_board_caches
recount:
    jmp ai_prepare_board
.endproc

; The row data of orientation z_o the evaluation uses (generated tables): the sweep loads its
; target's once, before the evaluations of its placements.
.segment "PACK_ai_load_target"
.proc ai_load_target
    ldx z_o
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
    tax
    lda gen_row_halo,x
    sta tg_halo
    lda gen_row_halo+1,x
    sta tg_halo+1
    lda gen_row_halo+2,x
    sta tg_halo+2
    lda gen_row_halo+3,x
    sta tg_halo+3
    rts
.endproc

; The piece's cells (pm) into eb's rows; dropped = its cells above the visible rows (left out).
.segment "PACK_or_piece"
.proc or_piece
    lda #0
    sta dropped
    ldx #3
slot:
    txa
    clc
    adc z_y
    sec
    sbc #2
    bpl on_board
    lda pm_lo,x             ; a cell above the visible rows
    ora pm_hi,x
    beq next
    inc dropped
    bne next
on_board:
    tay
    lda eb_lo,y
    ora pm_lo,x
    sta eb_lo,y
    lda eb_hi,y
    ora pm_hi,x
    sta eb_hi,y
next:
    dex
    bpl slot
    rts
.endproc

; eb_f and eb_h after the placement z_o at (z_x, z_y) went into eb's rows and z_lines of them
; are full (the evaluation's line-clear path: they stay in place, the heights skip them).

; eb_h after the placement z_o at (z_x, z_y), whose cells are in eb's rows, clears its z_lines
; full rows (still in place). The first full row r0 holds a cell of every column, so a column's
; top lies either above r0 (it sinks by z_lines) or in r0 (its new top is the first cell below r0
; in a row that stays, lowered by the full rows under it).
.segment "PACK_heights_after_clear"
.proc heights_after_clear
columns_left = z_t2         ; the piece's columns: those still to go,
new_top    = z_t3           ; and 22 - y (a cell's height is this - (its row offset + 2))
r0         = z_t3           ; the first full row
r0_height  = z_t6           ; 20 - r0: the height of a top in r0
full_below = z_t2           ; full rows at or below the row at hand (r0 counted)
    ldx z_o                 ; the piece's columns: their tops are the piece's
    lda z_x
    clc
    adc gen_shape_min_dx,x
    tay                     ; c0
    lda gen_shape_width,x
    sta columns_left
    txa
    asl
    asl
    tax                     ; shape entry o*4
    lda #22
    sec
    sbc z_y
    sta new_top             ; 22 - y: a cell's height is this - (its row offset + 2)
cover:
    lda gen_shape_column,x
    lsr
    lsr                     ; highest cell + 2
    eor #$FF
    sec
    adc new_top
    sta eb_h,y
    inx
    iny
    dec columns_left
    bne cover
    ; r0 = the first full row among y-2 .. y+1 (a full row holds a piece cell: row >= 0)
    lda z_y
    sec
    sbc #2
    bpl first_row
    lda #0                  ; (rows above the board)
first_row:
    tay
find:
    lda eb_lo,y
    cmp #$FF
    bne not_full
    lda eb_hi,y
    cmp #$0F
    beq found
not_full:
    iny
    bne find                ; (always)
found:
    sty r0
    tya
    eor #$FF
    sec
    adc #ROWS
    sta r0_height           ; 20 - r0: the height of a top in r0
    ldx #COLUMNS-1
column:
    lda eb_h,x
    cmp r0_height
    beq scan                ; its top is in r0
    sec
    sbc z_lines
    sta eb_h,x
    dex
    bpl column
    rts
scan:
    ldy r0                  ; rows below r0: full ones are skipped, each leaves one less below
    lda z_lines
    sta full_below          ; full rows at or below the row at hand, r0 counted
below:
    iny
    cpy #ROWS
    bcs bottom
    lda eb_lo,y
    cmp #$FF
    bne stays
    lda eb_hi,y
    cmp #$0F
    bne stays
    dec full_below          ; a full row
    jmp below
stays:
    lda eb_lo,y
    and gen_bit_lo+1,x
    bne cell
    lda eb_hi,y
    and gen_bit_hi+1,x
    beq below
cell:
    dec full_below          ; (r0 is above)
    tya
    clc
    adc full_below          ; row + full rows below it
    eor #$FF
    sec
    adc #ROWS               ; 20 - that
    .byte $2C               ; (BIT abs: skips the LDA #0)
bottom:
    lda #0
    sta eb_h,x
    dex
    bpl column
    rts
.endproc

; pm_lo/pm_hi = the cells of orientation z_o at column z_x in its rows y-2 .. y+1 (slots 0-3).
.segment "PACK_ai_piece_masks"
.proc ai_piece_masks
entry      = z_t0           ; the shape's entry: o*4
run        = z_t2           ; the slot's run: first column + 2 (high nibble), its cells (low)
cells_left = z_t3           ; the run's cells still to go
    lda #0
    ldx #7
clear:
    sta pm_lo,x             ; pm_lo and pm_hi are adjacent
    dex
    bpl clear
    lda z_o
    asl
    asl
    sta entry
    ldx #3
slot:
    txa
    clc
    adc entry
    tay
    lda gen_shape_runs,y
    beq next
    sta run
    lsr
    lsr
    lsr
    lsr
    clc
    adc z_x
    tay                     ; first column + 2, and +1 for the bit tables: index = column + 1
    dey
    lda run
    and #$0F
    sta cells_left
cell:
    lda pm_lo,x
    ora gen_bit_lo,y
    sta pm_lo,x
    lda pm_hi,x
    ora gen_bit_hi,y
    sta pm_hi,x
    iny
    dec cells_left
    bne cell
next:
    dex
    bpl slot
    rts
.endproc

; The rows of ai_undo_placement only (pm must hold the piece's cells).
.segment "PACK_undo_rows"
.proc undo_rows
kept_row   = z_t0           ; the next row that stayed, in the compacted board
    lda ud_count
    beq remove
    sta kept_row
    ldx #0
row:
    ldy ud_count
find:
    dey
    bmi survivor
    txa
    cmp ud_rows,y
    bne find
    lda #$FF                ; a cleared row
    sta eb_lo,x
    lda #$0F
    sta eb_hi,x
    jmp next
survivor:
    ldy kept_row
    lda eb_lo,y
    sta eb_lo,x
    lda eb_hi,y
    sta eb_hi,x
    inc kept_row
next:
    inx
    cpx #ROWS
    bne row
    jsr ai_yield            ; (the rows back: a step)
remove:
    jmp remove_piece
.endproc

; The piece's cells (pm) out of eb's rows.
.segment "PACK_remove_piece"
.proc remove_piece
    ldx #3
slot:
    txa
    clc
    adc z_y
    sec
    sbc #2
    bmi next_slot
    tay
    lda pm_lo,x
    eor #$FF
    and eb_lo,y
    sta eb_lo,y
    lda pm_hi,x
    eor #$FF
    and eb_hi,y
    sta eb_hi,y
next_slot:
    dex
    bpl slot
    rts
.endproc

; z_cost += the holes, stack, spawn, well and gap costs of eb after a placement that cleared
; z_lines rows: eb_h as they are then, eb_f with the piece's cells but not yet less the cleared
; rows' (each took one cell of every column). One pass over the columns.
.segment "PACK_cleared_columns_cost"
.proc cleared_columns_cost
    lda #0
    sta max08               ; highest of 0-8
    sta max38               ; highest of SPAWN_TERM_FIRST-8
    lda #$FF
    sta min08               ; lowest of 0-8
    ldx #0
column:
    lda eb_h,x              ; holes: height - (filled - lines)
    clc
    adc z_lines
    sec
    sbc eb_f,x
    cpx #COLUMNS-1
    bne hole_count
    and s_well_holes        ; the well's: none in danger
hole_count:
    tay
    add_cost gen_hole
    cpx #COLUMNS-1
    beq well
    lda eb_h,x
    cmp max08
    bcc not_highest
    sta max08
not_highest:
    cmp min08
    bcs not_lowest
    sta min08
not_lowest:
    cpx #SPAWN_TERM_FIRST
    bcc gap                 ; (column 9 went to well above)
    cmp max38
    bcc gap
    sta max38
gap:
    lda eb_h-1,x            ; the lower neighbour (the wall left of column 0) ...
    cmp eb_h+1,x
    bcc lower
    lda eb_h+1,x
lower:
    sec
    sbc eb_h,x              ; ... above the column
    bcc next
    tay
    add_cost gen_gap
next:
    inx
    bne column              ; (always)
well:
    lda eb_h+COLUMNS-1
    sta well_h
    jmp ai_extremes_cost
.endproc
