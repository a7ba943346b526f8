; Placing a piece on the evaluation board eb: the cost of a placement (evaluated incrementally
; from eb's caches; eb is left unchanged), making a first-ply candidate part of eb and undoing it.
;
; Rows (12 bits: bit 0 the left wall, bit c+1 column c, bit 11 the right wall): every row of a
; tetromino is one run of cells landing in empty cells, so a row's transitions change only at the
; run's two ends: t' = t + 2 - 2 * (left neighbour filled + right neighbour filled), the walls
; being filled; the row is full exactly when t' = 0.
; Columns: the covered columns' old hole and bump costs leave through the prefix sums, their new
; ones are looked up.
.include "ai.inc"
.include "ai_gen.inc"

.import bump_index

.segment "AI_CODE"

; pm_lo/pm_hi = the cells of orientation z_o at column z_x in its rows y-2 .. y+1 (slots 0-3).
.proc ai_piece_masks
    lda #0
    ldx #7
clear:
    sta pm_lo,x             ; pm_lo and pm_hi are adjacent
    dex
    bpl clear
    lda z_o
    asl
    asl
    sta z_t0
    ldx #3
slot:
    txa
    clc
    adc z_t0
    tay
    lda gen_shape_runs,y
    beq next
    sta z_t2
    lsr
    lsr
    lsr
    lsr
    clc
    adc z_x
    tay                     ; first column + 2, and +1 for the bit tables: index = column + 1
    dey
    lda z_t2
    and #$0F
    sta z_t3
cell:
    lda pm_lo,x
    ora gen_bit_lo,y
    sta pm_lo,x
    lda pm_hi,x
    ora gen_bit_hi,y
    sta pm_hi,x
    iny
    dec z_t3
    bne cell
next:
    dex
    bpl slot
    rts
.endproc

; z_cost = cost of placing z_o at (z_x, z_y) on eb: lines cost + evaluation of the board it
; leaves, COST_MAX when a cell lands above the visible rows. z_lines = lines it clears.
.proc ai_eval_placement
    lda #0
    sta z_lines
    sta z_delta
    sta z_delta+1
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
    txa
    asl
    asl
    sta z_t0                ; o*4
    lda z_y
    sec
    sbc #2
    sta z_t7                ; the row of slot 0
    ldx #3
slot:
    stx z_t1
    txa
    clc
    adc z_t0
    tay
    lda gen_shape_runs,y
    beq next_slot
    sta z_t2
    txa
    clc
    adc z_t7
    tay                     ; the row
    lda #0
    sta z_t3                ; neighbours filled
    lda z_t2
    lsr
    lsr
    lsr
    lsr
    clc
    adc z_x
    sec
    sbc #2
    tax                     ; first column a: cell a is its left neighbour
    lda gen_bit_lo,x
    and eb_lo,y
    bne left_filled
    lda gen_bit_hi,x
    and eb_hi,y
    beq left_done
left_filled:
    inc z_t3
left_done:
    lda z_t2
    and #$0F
    sta z_t4
    txa
    sec
    adc z_t4
    tax                     ; cell a + length + 1: the right neighbour
    lda gen_bit_lo,x
    and eb_lo,y
    bne right_filled
    lda gen_bit_hi,x
    and eb_hi,y
    beq right_done
right_filled:
    inc z_t3
right_done:
    ldx eb_tr,y             ; old transitions
    lda z_t3
    beq up                  ; both neighbours empty: +2
    cmp #2
    bne next_slot           ; one filled: unchanged
    cpx #2                  ; both filled: -2, and the row is full when it had 2
    bne down
    inc z_lines
down:
    lda gen_row_down_lo,x
    clc
    adc z_delta
    sta z_delta
    lda gen_row_down_hi,x
    adc z_delta+1
    sta z_delta+1
    jmp next_slot
up:
    lda gen_row_up_lo,x
    clc
    adc z_delta
    sta z_delta
    lda gen_row_up_hi,x
    adc z_delta+1
    sta z_delta+1
next_slot:
    ldx z_t1
    dex
    bmi slots_done
    jmp slot
slots_done:
    lda z_lines
    jne with_clear

    ; Covered columns z_t1 .. z_t2-1, bump pairs z_t3 .. z_t4-1.
    ldx z_o
    lda z_x
    clc
    adc gen_shape_min_dx,x
    sta z_t1
    clc
    adc gen_shape_width,x
    sta z_t2
    ldy z_t1
    beq first_pair
    dey
first_pair:
    sty z_t3
    cmp #9
    bcc last_pair
    lda #8
last_pair:
    sta z_t4
    ; cost = base + row changes + the prefix sums' complement of the covered range
    lda eb_base
    clc
    adc z_delta
    sta z_cost
    lda eb_base+1
    adc z_delta+1
    sta z_cost+1
    ldy z_t1
    lda z_cost
    clc
    adc hp_lo,y
    sta z_cost
    lda z_cost+1
    adc hp_hi,y
    sta z_cost+1
    ldy z_t3
    lda z_cost
    clc
    adc bp_lo,y
    sta z_cost
    lda z_cost+1
    adc bp_hi,y
    sta z_cost+1
    ldy z_t2
    lda z_cost
    sec
    sbc hp_lo,y
    sta z_cost
    lda z_cost+1
    sbc hp_hi,y
    sta z_cost+1
    ldy z_t4
    lda z_cost
    sec
    sbc bp_lo,y
    sta z_cost
    lda z_cost+1
    sbc bp_hi,y
    sta z_cost+1
    ; raise the covered columns (old values on the stack): new hole costs, the extremes
    lda #22
    sec
    sbc z_y
    sta z_s0                ; 22 - y: a column's new height is this - (highest cell + 2)
    lda eb_max08
    sta z_t5
    lda eb_max36
    sta z_t6
    lda #0
    sta z_t7                ; set: a lowest column of 0-8 was covered
    ldx z_t0                ; shape entry o*4
    ldy z_t1
raise:
    lda eb_h,y
    pha
    cmp eb_min08
    bne not_lowest
    cpy #9
    bcs not_lowest
    inc z_t7
not_lowest:
    lda eb_f,y
    pha
    lda gen_shape_column,x
    lsr
    lsr
    sta z_s1                ; highest cell + 2
    lda gen_shape_column,x
    and #$03                ; lowest cell + 2
    sec
    sbc z_s1
    sec
    adc eb_f,y              ; filled + (lowest - highest + 1)
    sta eb_f,y
    lda z_s0
    sec
    sbc z_s1
    sta eb_h,y              ; the new height
    cpy #9
    bcs extremes_done
    cmp z_t5
    bcc not_max
    sta z_t5
not_max:
    cpy #3
    bcc extremes_done
    cpy #7
    bcs extremes_done
    cmp z_t6
    bcc extremes_done
    sta z_t6
extremes_done:
    sec
    sbc eb_f,y
    stx z_s1
    tax
    lda gen_hole_lo,x
    clc
    adc z_cost
    sta z_cost
    lda gen_hole_hi,x
    adc z_cost+1
    sta z_cost+1
    ldx z_s1
    inx
    iny
    cpy z_t2
    bne raise
    ; new bump pairs
    ldx z_t3
pairs:
    cpx z_t4
    bcs pairs_done
    lda eb_h,x
    sec
    sbc eb_h+1,x
    bcs positive
    eor #$FF
    adc #1
positive:
    tay
    lda gen_bump_lo,y
    clc
    adc z_cost
    sta z_cost
    lda gen_bump_hi,y
    adc z_cost+1
    sta z_cost+1
    inx
    bne pairs
pairs_done:
    lda z_t2                ; keep the covered range past ai_extremes_cost (it reads z_t0-z_t2)
    sta z_t3
    lda z_t1
    sta z_t4
    lda z_t5
    sta z_t0
    lda eb_min08
    sta z_t1
    lda z_t6
    sta z_t2
    lda z_t7
    beq lowest_known
    jsr ai_find_extremes    ; a lowest column was raised: all three again, on the new heights
lowest_known:
    jsr ai_extremes_cost
    ldy z_t3                ; restore the covered columns
restore:
    dey
    pla
    sta eb_f,y
    pla
    sta eb_h,y
    cpy z_t4
    bne restore
    rts

; Lines cleared: every column is rebuilt in eb_h/eb_f (saved on the stack), evaluated in full,
; and restored. The row costs are already in z_delta (a full row costs what an empty one does).
with_clear:
    jsr ai_piece_masks
    ldx #COLUMNS-1
save:
    lda eb_h,x
    pha
    lda eb_f,x
    pha
    dex
    bpl save
    ldx z_o
    lda z_x
    clc
    adc gen_shape_min_dx,x
    sta z_t1
    lda gen_shape_width,x
    sta z_t2
    txa
    asl
    asl
    tax
    ldy z_t1
cover:
    jsr cover_column
    iny
    inx
    dec z_t2
    bne cover
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
    jsr ai_column_sum       ; z_cost = holes and bumps of the cleared board
    lda eb_rowsum           ; + rows: eb's sum and the changes
    clc
    adc z_delta
    tay
    lda eb_rowsum+1
    adc z_delta+1
    tax
    tya
    jsr add_ax
    ldy z_lines
    lda gen_lines_lo,y
    ldx gen_lines_hi,y
    jsr add_ax
    jsr ai_find_extremes
    jsr ai_extremes_cost
    ldx #0
unsave:
    pla
    sta eb_f,x
    pla
    sta eb_h,x
    inx
    cpx #COLUMNS
    bne unsave
    rts
.endproc

; Column Y covered by shape entry X (o*4+j) of the piece landed at z_y: its filled count grows
; by the piece's cells there, its height becomes 20 - (y + top) = 22 - y - (top + 2).
; Returns A = the new height. Keeps X, Y.
.proc cover_column
    lda gen_shape_column,x
    lsr
    lsr
    sta z_s1                ; highest cell + 2
    lda gen_shape_column,x
    and #$03                ; lowest cell + 2
    sec
    sbc z_s1
    sec
    adc eb_f,y              ; filled + (lowest - highest + 1)
    sta eb_f,y
    lda #22
    sec
    sbc z_y
    sec
    sbc z_s1
    sta eb_h,y
    rts
.endproc

; Is row A of eb + piece (pm) full? C = 1 when full. Keeps X, Y.
.proc row_is_full
    sec
    sbc z_y
    clc
    adc #2                  ; slot
    cmp #4
    bcs no                  ; outside the piece's rows: it was not full before either
    stx z_s0
    tax
    lda pm_lo,x
    ora pm_hi,x
    beq no_restore
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
    cmp #$0F
    bne no_restore
    ldx z_s0
    sec
    rts
no_restore:
    ldx z_s0
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
    lda #ROWS               ; height = (20 - row) - full rows below it
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
    sty z_s0
    ldy z_t6
    lda gen_bit_lo+1,y
    sta z_t3
    lda gen_bit_hi+1,y
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
    ldy z_s0
    lda #0
    rts
yes:
    ldy z_s0
    lda #1
    rts
.endproc

; Makes the placement z_o at (z_x, z_y) part of eb: cells above the visible rows are dropped,
; full rows removed (remembered in ud_rows for the undo), columns and caches rebuilt.
; z_lines = lines cleared (0 when it tops out: nothing is cleared then, as in the reference).
.proc ai_apply_placement
    jsr ai_piece_masks
    lda #0
    sta z_lines
    sta ud_count
    sta z_t6                ; topped out?
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
    inc z_t6
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
    lda z_t6
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
    jmp ai_prepare_board
.endproc

; Takes the placement z_o at (z_x, z_y) out of eb again after ai_apply_placement: the cleared
; rows (they were full) go back in their places, then the piece's cells are removed.
.proc ai_undo_placement
    jsr ai_piece_masks
    lda ud_count
    beq remove
    sta z_t0                ; the next surviving row in the compacted board
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
    ldy z_t0
    lda eb_lo,y
    sta eb_lo,x
    lda eb_hi,y
    sta eb_hi,x
    inc z_t0
next:
    inx
    cpx #ROWS
    bne row
remove:
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
    jmp ai_prepare_board
.endproc
