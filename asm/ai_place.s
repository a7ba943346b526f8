; Placing a piece on the evaluation board eb: the cost of a placement (evaluated incrementally
; from eb's cached sums, eb left unchanged), and making a placement permanent (with line clears).
.include "ai.inc"
.include "ai_gen.inc"

.import ai_row_index, ai_column_sum, ai_bump_cost_add, ai_bump_cost_sub, ai_extremes_eval

.segment "AI_CODE"

; z_t0 = o * 4: index of the orientation's first cell / column entry.
.macro shape_index
    lda z_o
    asl
    asl
    sta z_t0
.endmacro

; pm_lo/pm_hi = the piece's cells (z_o at z_x) in its rows y-2 .. y+1 (slots 0-3).
.proc piece_masks
    lda #0
    ldx #7
clear:
    sta pm_lo,x             ; pm_lo and pm_hi are adjacent
    dex
    bpl clear
    shape_index
    tax
    lda #4
    sta z_t1
cell:
    lda gen_shape_cell_dx,x
    clc
    adc z_x
    tay
    lda gen_bit_lo,y
    sta z_t2
    lda gen_bit_hi,y
    sta z_t3
    ldy gen_shape_cell_dy2,x
    lda pm_lo,y
    ora z_t2
    sta pm_lo,y
    lda pm_hi,y
    ora z_t3
    sta pm_hi,y
    inx
    dec z_t1
    bne cell
    rts
.endproc

; z_cost = cost of placing z_o at (z_x, z_y) on eb: lines cost + evaluation of the board it
; leaves, COST_MAX when a cell lands above the visible rows. z_lines = lines it clears.
; eb is left as it was.
.proc ai_eval_placement
    inc stat_evals
    bne counted
    inc stat_evals+1
counted:
    lda #0
    sta z_lines
    ldx z_o
    lda z_y
    clc
    adc gen_shape_min_dy2,x
    cmp #2
    bcs on_board
    lda #$FF                ; tops out
    sta z_cost
    sta z_cost+1
    rts
on_board:
    jsr piece_masks
    ; Rows the piece touches: row cost changes, and full rows.
    lda #0
    sta z_delta
    sta z_delta+1
    ldx #3
slot:
    lda pm_lo,x
    ora pm_hi,x
    beq next_slot
    stx z_t4
    txa
    clc
    adc z_y
    sec
    sbc #2
    tay                     ; the row
    lda eb_lo,y
    sta z_t2
    ora pm_lo,x
    sta z_t5
    lda eb_hi,y
    sta z_t3
    ora pm_hi,x
    sta z_t6
    cmp #$03
    bne not_full
    lda z_t5
    cmp #$FF
    bne not_full
    inc z_lines
not_full:
    lda z_t2
    ldy z_t3
    jsr ai_row_index
    lda z_delta
    sec
    sbc gen_row_lo,x
    sta z_delta
    lda z_delta+1
    sbc gen_row_hi,x
    sta z_delta+1
    lda z_t5
    ldy z_t6
    jsr ai_row_index
    lda z_delta
    clc
    adc gen_row_lo,x
    sta z_delta
    lda z_delta+1
    adc gen_row_hi,x
    sta z_delta+1
    ldx z_t4
next_slot:
    dex
    bpl slot
    lda z_lines
    beq no_clear
    jmp with_clear
no_clear:
    ; Columns the piece covers: z_t1 = first, z_t2 = count; first/last bump pairs z_t3/z_t4.
    ldx z_o
    lda z_x
    clc
    adc gen_shape_min_dx,x
    sta z_t1
    lda gen_shape_width,x
    sta z_t2
    jsr bump_pair_range
    ; old bump pairs out
    ldx z_t3
old_pairs:
    cpx z_t4
    beq old_done
    bcs old_done
    jsr ai_bump_cost_sub
    inx
    bne old_pairs
old_done:
    ; raise the covered columns: holes out (old) and in (new); save for the restore
    shape_index
    lda #0
    sta z_t5                ; column offset j
raise:
    lda z_t1
    clc
    adc z_t5
    tay                     ; column
    lda eb_h,y
    sta save_h,y
    sec
    sbc eb_f,y
    tax
    lda z_delta
    sec
    sbc gen_hole_lo,x
    sta z_delta
    lda z_delta+1
    sbc gen_hole_hi,x
    sta z_delta+1
    lda eb_f,y
    sta save_f,y
    lda z_t0
    clc
    adc z_t5
    tax                     ; shape entry o*4+j
    jsr cover_column
    lda eb_h,y
    sec
    sbc eb_f,y
    tax
    lda z_delta
    clc
    adc gen_hole_lo,x
    sta z_delta
    lda z_delta+1
    adc gen_hole_hi,x
    sta z_delta+1
    inc z_t5
    lda z_t5
    cmp z_t2
    bne raise
    ; new bump pairs in: into z_cost, then total
    lda z_delta
    sta z_cost
    lda z_delta+1
    sta z_cost+1
    ldx z_t3
new_pairs:
    cpx z_t4
    beq new_done
    bcs new_done
    jsr ai_bump_cost_add
    inx
    bne new_pairs
new_done:
    lda z_t1
    sta z_t6                ; ai_extremes_eval uses z_t0/z_t1
    jsr add_sums_and_lines
    jsr ai_extremes_eval
    ; restore the covered columns
    ldy z_t6
    ldx z_t2
restore:
    lda save_h,y
    sta eb_h,y
    lda save_f,y
    sta eb_f,y
    iny
    dex
    bne restore
    rts

; Lines cleared: every column is rebuilt in eb_h/eb_f (after saving them), evaluated in full,
; and restored. The row costs are already in z_delta (a full row costs what an empty one does).
with_clear:
    ldx #COLUMNS-1
save:
    lda eb_h,x
    sta save_h,x
    lda eb_f,x
    sta save_f,x
    dex
    bpl save
    ; covered columns first: their height and filled count with the piece
    ldx z_o
    lda z_x
    clc
    adc gen_shape_min_dx,x
    sta z_t1
    lda gen_shape_width,x
    sta z_t2
    shape_index
    ldy z_t1
    ldx z_t0
cover:
    jsr cover_column
    iny
    inx
    dec z_t2
    bne cover
    ; then every column without the full rows
    ldx #COLUMNS-1
column:
    stx z_t6
    lda eb_f,x
    sec
    sbc z_lines
    sta eb_f,x
    jsr height_after_clear
    ldx z_t6
    sta eb_h,x
    dex
    bpl column
    lda z_delta
    sta z_cost
    lda z_delta+1
    sta z_cost+1
    lda eb_rowsum           ; rows: eb's sum + the changes (the column sum is new)
    clc
    adc z_cost
    sta z_cost
    lda eb_rowsum+1
    adc z_cost+1
    sta z_cost+1
    lda z_cost
    pha
    lda z_cost+1
    pha
    jsr ai_column_sum
    pla
    tax
    pla
    clc
    adc z_cost
    sta z_cost
    txa
    adc z_cost+1
    sta z_cost+1
    jsr add_lines
    jsr ai_extremes_eval
    ldx #COLUMNS-1
unsave:
    lda save_h,x
    sta eb_h,x
    lda save_f,x
    sta eb_f,x
    dex
    bpl unsave
    rts
.endproc

; Column Y covered by shape column X (entry o*4+j) of the piece landed at z_y: its filled count
; grows by the piece's cells there, its height becomes 20 - (y + top) = 22 - y - (top + 2).
; Keeps X, Y.
.proc cover_column
    lda gen_shape_column,x
    and #$03                ; lowest cell + 2
    sec
    adc eb_f,y              ; + 1
    sta eb_f,y
    lda gen_shape_column,x
    lsr
    lsr
    sta z_t7                ; highest cell + 2
    lda eb_f,y
    sec
    sbc z_t7
    sta eb_f,y              ; filled + (lowest - highest + 1)
    lda #22
    sec
    sbc z_y
    sec
    sbc z_t7
    sta eb_h,y
    rts
.endproc

; z_t3..z_t4: the bump pairs (p, p+1) touching columns z_t1 .. z_t1+z_t2-1, within 0..7:
; from max(z_t1 - 1, 0) to min(z_t1 + z_t2 - 1, 7) inclusive; z_t4 is one past the last.
.proc bump_pair_range
    ldx z_t1
    beq from_zero
    dex
from_zero:
    stx z_t3
    lda z_t1
    clc
    adc z_t2
    cmp #9
    bcc ok
    lda #8
ok:
    sta z_t4
    rts
.endproc

; z_cost += eb_rowsum + eb_colsum + lines cost of z_lines.
.proc add_sums_and_lines
    lda z_cost
    clc
    adc eb_rowsum
    sta z_cost
    lda z_cost+1
    adc eb_rowsum+1
    sta z_cost+1
    lda z_cost
    clc
    adc eb_colsum
    sta z_cost
    lda z_cost+1
    adc eb_colsum+1
    sta z_cost+1
.endproc
; fall through
.proc add_lines
    ldx z_lines
    lda gen_lines_lo,x
    clc
    adc z_cost
    sta z_cost
    lda gen_lines_hi,x
    adc z_cost+1
    sta z_cost+1
    rts
.endproc

; Is row A of eb + piece full? Only rows y-2..y+1 can be (it is a full row of the placement).
; C = 1 when full. Keeps X, Y.
.proc row_is_full
    sec
    sbc z_y
    clc
    adc #2                  ; slot
    cmp #4
    bcs no                  ; outside the piece's rows
    stx z_t7
    tax
    lda pm_lo,x
    ora pm_hi,x
    beq no_restore          ; nothing placed in that row: it was not full before either
    lda pm_lo,x
    sta z_t3
    lda pm_hi,x
    sta z_t4
    txa
    clc
    adc z_y
    sec
    sbc #2
    tax
    lda eb_lo,x
    ora z_t3
    cmp #$FF
    bne no_restore
    lda eb_hi,x
    ora z_t4
    cmp #$03
    bne no_restore
    ldx z_t7
    sec
    rts
no_restore:
    ldx z_t7
no:
    clc
    rts
.endproc

; Height of column z_t6 once the full rows are gone, from eb_h (the column's height with the
; piece) and the cells of eb + piece. Returns A.
.proc height_after_clear
    ldx z_t6
    lda #ROWS
    sec
    sbc eb_h,x
    sta z_t5                ; top row of the column
    jsr row_is_full
    bcs scan
    lda eb_h,x              ; the top survives: every full row is below it
    sec
    sbc z_lines
    rts
scan:                       ; the top row goes: find the next filled row that stays
    inc z_t5
    lda z_t5
    cmp #ROWS
    beq empty
    jsr row_is_full
    bcs scan
    jsr cell_with_piece
    beq scan
    ; height = (20 - row) - full rows below it
    lda #ROWS
    sec
    sbc z_t5
    sta z_t2
    ldy #3
below:
    lda z_y
    clc
    adc below_offsets,y
    cmp z_t5
    bcc not_below
    beq not_below
    cmp #ROWS
    bcs not_below
    jsr row_is_full
    bcc not_below
    dec z_t2
not_below:
    dey
    bpl below
    lda z_t2
    rts
empty:
    lda #0
    rts
below_offsets:
    .byte $FE, $FF, $00, $01    ; rows y-2 .. y+1
.endproc

; Z clear when column z_t6 has a cell in row z_t5 (eb + piece). Keeps X, Y.
.proc cell_with_piece
    sty z_t7
    ldy z_t6
    lda gen_bit_lo,y
    sta z_t3
    lda gen_bit_hi,y
    sta z_t4
    ldy z_t5
    lda eb_lo,y
    and z_t3
    bne yes
    lda eb_hi,y
    and z_t4
    bne yes
    lda z_t5                ; a piece cell?
    sec
    sbc z_y
    clc
    adc #2
    cmp #4
    bcs none
    tay
    lda pm_lo,y
    and z_t3
    bne yes
    lda pm_hi,y
    and z_t4
    bne yes
none:
    ldy z_t7
    lda #0
    rts
yes:
    ldy z_t7
    lda #1
    rts
.endproc

; Makes the placement z_o at (z_x, z_y) part of eb: cells above the visible rows are dropped,
; full rows removed, heights and caches rebuilt. z_lines = lines cleared (0 when it tops out).
.proc ai_apply_placement
    lda #0
    sta z_lines
    shape_index
    tax
    lda #4
    sta z_t1
    lda #0
    sta z_t6                ; topped out?
cell:
    lda z_y
    clc
    adc gen_shape_cell_dy2,x
    sec
    sbc #2
    bpl on_board
    inc z_t6
    jmp next
on_board:
    sta z_t2                ; row
    lda gen_shape_cell_dx,x
    clc
    adc z_x
    tay
    lda gen_bit_lo,y
    ldy z_t2
    ora eb_lo,y
    sta eb_lo,y
    lda gen_shape_cell_dx,x
    clc
    adc z_x
    tay
    lda gen_bit_hi,y
    ldy z_t2
    ora eb_hi,y
    sta eb_hi,y
next:
    inx
    dec z_t1
    bne cell
    lda z_t6
    bne rebuild             ; topped out: no lines (as the reference)
    ; remove full rows, moving the rows above down
    ldx #ROWS-1
    ldy #ROWS-1
compact:
    lda eb_lo,x
    cmp #$FF
    bne keep
    lda eb_hi,x
    cmp #$03
    bne keep
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
    lda #0
fill:
    cpy #$FF
    beq rebuild
    sta eb_lo,y
    sta eb_hi,y
    dey
    jmp fill
rebuild:
    jsr ai_recompute_columns
    jmp ai_board_caches
.endproc
