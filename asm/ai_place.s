; Placing a piece on the evaluation board eb: making a first-ply candidate part of eb and undoing
; it, and the routines a line clear's evaluation uses (the evaluation itself: ai_eval.s).
;
; Rows (12 bits: bit 0 the left wall, bit c+1 column c, bit 11 the right wall): every row of a
; tetromino is one run of cells landing in empty cells, so a row's transitions change only at the
; run's two ends: t' = t + 2 - 2 * (left neighbour filled + right neighbour filled), the walls
; being filled; the row is full exactly when t' = 0. Row costs are linear in the class, so the
; placement's row cost is its count of class changes times the step (one table entry).
; Columns: the covered columns' old hole costs leave through the prefix sums, their new ones are
; looked up; the lowest of columns 0-8 outside the piece comes from prefix and suffix minima.
.include "ai.inc"

; Handed from or_piece to ai_apply_placement in a scratch byte:
dropped    = z_t6           ; the piece's cells above the visible rows (left out of eb)

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
board_top  = z_s0           ; 20 - the highest column: the board's top row
    jsr ai_piece_masks
    lda #0
    sta z_lines
    sta ud_count
    jsr or_piece
    lda dropped
    bne recount             ; cells dropped above the visible rows: count the columns again
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
    bne skip                ; (always)
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
    tya
    bmi columns             ; (Y = $FF: no row left to fill)
fill:
    lda #$01                ; an empty row: the walls
    sta eb_lo,y
    lda #$08
    sta eb_hi,y
    dey
    bpl fill
columns:
    lda #0                  ; every column's eb_f less the cleared rows' cells
    sec
    sbc z_lines
    clc
    jsr adjust_filled
    ; the heights from the first row that can hold a cell: the piece's top row or the board's,
    ; the higher (the placement did not top out)
    lda eb_max08
    cmp eb_h+9
    bcs highest
    lda eb_h+9
highest:
    eor #$FF
    sec
    adc #ROWS
    sta board_top           ; 20 - the highest column
    ldx z_o
    lda z_y
    clc
    adc gen_shape_min_dy2,x
    sec
    sbc #2                  ; the piece's top row
    cmp board_top
    bcc piece
    lda board_top
piece:
    tay
    lda #0                  ; (the full rows are gone)
    jsr ai_heights_from_rows
    jmp ai_board_caches
recount:
    jmp ai_prepare_board
.endproc

; ai_undo_placement of candidate ply2_k (the second ply's, and restore_eb's).
.segment "PACK_ai_undo_placement"
.proc undo_candidate
    jsr ply2_k_placement
.endproc
; fall through
; Takes the placement z_o at (z_x, z_y) out of eb again after ai_apply_placement: the cleared
; rows (they were full) go back in their places (between the compacted rows that stayed), then
; the piece's cells are removed.
.proc ai_undo_placement
kept_row   = z_t0           ; the next row that stayed, in the compacted board
    jsr ai_piece_masks
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
    bne next                ; (always)
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
    jsr remove_piece        ; then the piece's cells
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

; The piece's cells (pm) into eb's rows; dropped = its cells above the visible rows (left out).
.segment "PACK_or_piece"
.proc or_piece
    lda #0
    sta dropped
    ldx #3
slot:
    row_of_slot
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
    bcs below               ; (always: C = 1 from the cmp)
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

; The piece's cells (pm) out of eb's rows.
.segment "PACK_remove_piece"
.proc remove_piece
    ldx #3
slot:
    row_of_slot
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
    holes_of_column
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
    clamp_gap_y
    add_cost gen_gap
next:
    inx
    bne column              ; (always)
well:
    lda eb_h+COLUMNS-1
    sta well_h
    jmp ai_extremes_cost
.endproc
