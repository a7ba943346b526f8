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

; Handed from toggle_piece to ai_apply_placement in a scratch byte:
dropped    = z_t6           ; the piece's cells above the visible rows (left out of eb)

; eb_f of every column + A, then the piece z_o at (z_x, z_y) adds its cells to its columns
; (C = 0) or takes them away (C = 1).
.segment "RAM_adjust_filled"
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
taking     = z_s1           ; bit 7: the cells are taken away (C = 1)
top_plus2  = z_s0           ; the column's highest cell + 2
    ror taking              ; bit 7: take (shape_columns keeps z_s1)
    jsr shape_columns
column:
    lda gen_shape_column,x
    lsr
    lsr
    sta top_plus2           ; highest cell + 2
    lda gen_shape_column,x
    and #$03                ; lowest cell + 2
    sec
    sbc top_plus2           ; cells - 1 (C = 1)
    bit taking
    bpl add
    eor #$FF                ; taken: ~(cells - 1) = -cells, added with C = 0
    clc
add:
    adc eb_f,y              ; (eb_f may be "negative" for the moment: the rows were taken first)
    sta eb_f,y
    inx
    iny
    dec shape_columns_left
    bne column
    rts
.endproc

.segment "RAM_shape_columns"
; The walk over the columns of the piece z_o at z_x: X = its shape entry o*4, Y = the first
; column it covers, shape_columns_left = its width (ai.inc).
.proc shape_columns
    ldx z_o
    lda gen_shape_width,x
    sta shape_columns_left
    lda z_x
    clc
    adc gen_shape_min_dx,x
    tay                     ; c0
    txa
    asl
    asl
    tax                     ; shape entry o*4
    rts
.endproc

; Makes the placement z_o at (z_x, z_y) part of eb: cells above the visible rows are dropped,
; full rows removed, columns and caches rebuilt (restore_spawn_board takes it off again).
; z_lines = lines cleared (0 when it tops out: nothing is cleared then, as in the reference).
.segment "RAM_ai_apply_placement"
.proc ai_apply_placement
    jsr ai_piece_masks
    lda #0
    sta z_lines
    jsr toggle_piece
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
    ; the heights from the first row that can hold a cell: 20 - the highest of the piece (20 -
    ; its top row: the placement did not top out) and the columns before it
    ldx z_o
    lda #22
    sec
    sbc z_y                 ; (C = 1: y <= 21)
    sbc gen_shape_min_dy2,x ; 22 - (y + its highest cell + 2)
    cmp eb_max08
    bcs above08
    lda eb_max08
above08:
    cmp eb_h+9
    bcs highest
    lda eb_h+9
highest:
    eor #$FF
    sec
    adc #ROWS
    tay
    jmp ai_heights_from_rows ; (then the caches)
recount:
    jmp ai_prepare_board
.endproc

; eb as the second ply began (save_spawn_board, before its first candidate) and back again
; (restore_spawn_board, a candidate taken off): its rows, columns and caches, eb_top08 .. gp_hi
; and eb_base .. eb_max38. A copy takes a third of the time that undoing the placement and
; working out the columns and caches again took.
.segment "RAM_spawn_board"
.proc save_spawn_board
    ldx #<EB_SAVED_SIZE
board:
    lda eb_top08-1,x
    sta eb_saved-1,x
    dex
    bne board
    ldx #3
zp:
    lda eb_base,x
    sta eb_saved_zp,x
    dex
    bpl zp
    rts
.endproc
.proc restore_spawn_board
    ldx #<EB_SAVED_SIZE
board:
    lda eb_saved-1,x
    sta eb_top08-1,x
    dex
    bne board
    ldx #3
zp:
    lda eb_saved_zp,x
    sta eb_base,x
    dex
    bpl zp
    rts
.endproc
.assert eb_max08 = eb_base + 2 && eb_max38 = eb_base + 3, error, "the saved zero page is eb_base .. eb_max38"

; The piece's cells (pm) into eb's rows, or out of them: its cells are empty in eb (it landed
; there) or are its own (taken out again), so eor sets or clears them. dropped = its cells above
; the visible rows (left out).
.segment "RAM_toggle_piece"
.proc toggle_piece
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
    eor pm_lo,x
    sta eb_lo,y
    lda eb_hi,y
    eor pm_hi,x
    sta eb_hi,y
next:
    dex
    bpl slot
    rts
.endproc


; pm_lo/pm_hi = the cells of orientation z_o at column z_x in its rows y-2 .. y+1 (slots 0-3).
.segment "RAM_ai_piece_masks"
.proc ai_piece_masks
entry      = z_t0           ; the shape's entry: o*4
run        = z_t2           ; the slot's run: first column + 2 (high nibble), its cells (low)
cells_left = z_t3           ; the run's cells still to go
    lda z_o
    asl
    asl
    sta entry
    ldx #3
slot:
    lda #0
    sta pm_lo,x
    sta pm_hi,x
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
    lsr                     ; (C = 0: the cells' count, 1-4, has no bit 3)
    adc z_x
    tay                     ; first column + 2, and +1 for the bit tables: index = column + 1,
    lda run                 ; less 1 in their addresses
    and #$0F
    sta cells_left
cell:
    lda pm_lo,x
    ora gen_bit_lo-1,y
    sta pm_lo,x
    lda pm_hi,x
    ora gen_bit_hi-1,y
    sta pm_hi,x
    iny
    dec cells_left
    bne cell
next:
    dex
    bpl slot
    rts
.endproc
