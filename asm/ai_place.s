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

.segment "AI_BSS"
tg_o:      .res 1       ; the orientation ai_load_target unpacked (the sweep's target)
tg_nslots: .res 1       ; its rows: how many, and per row its offset from the origin row and
tg_roff:   .res 4       ; the cells (offsets from the column) left and right of its run
tg_offl:   .res 4
tg_offr:   .res 4
nh = pm_lo                  ; new heights of the covered columns (pm_lo is free meanwhile)

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
; eb is not changed.
.proc ai_eval_placement
    lda z_o
    cmp tg_o
    beq loaded
    jsr ai_load_target
loaded:
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
    ; Rows the piece covers: transitions +2, 0 or -2 by the run's neighbours.
    ldx tg_nslots
    dex
    stx z_t1
slot:
    lda tg_roff,x
    clc
    adc z_y
    tay                     ; the row
    lda tg_offl,x
    clc
    adc z_x
    sta z_t2                ; left neighbour cell
    lda tg_offr,x
    clc
    adc z_x
    sta z_t3                ; right neighbour cell
    lda #0
    sta z_t4
    ldx z_t2
    lda gen_bit_lo,x
    and eb_lo,y
    bne left_filled
    lda gen_bit_hi,x
    and eb_hi,y
    beq left_done
left_filled:
    inc z_t4
left_done:
    ldx z_t3
    lda gen_bit_lo,x
    and eb_lo,y
    bne right_filled
    lda gen_bit_hi,x
    and eb_hi,y
    beq right_done
right_filled:
    inc z_t4
right_done:
    ldx eb_tr,y             ; old transitions
    lda z_t4
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
    dec z_t1
    ldx z_t1
    bmi rows_done
    jmp slot
rows_done:
    lda z_lines
    jne with_clear

    ; Covered columns c0 .. c1-1 (z_t1, z_t2). Their old hole costs and the old bump costs of
    ; the pairs touching them leave through the prefix sums; the new ones are added.
    ldx z_o
    lda gen_shape_width,x
    sta z_t0                ; width
    lda z_x
    clc
    adc gen_shape_min_dx,x
    sta z_t1                ; c0
    clc
    adc z_t0
    sta z_t2                ; c1
    ldy z_t1
    beq first_pair
    dey
first_pair:
    sty z_t3                ; first pair
    cmp #9
    bcc last_pair
    lda #8
last_pair:
    sta z_t4                ; one past the last pair
    lda eb_base             ; cost = base + row changes + prefix complement
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
    ; new heights, hole costs, extremes
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
    lda z_o
    asl
    asl
    sta z_t3                ; shape entry o*4 + j, j = column - c0
    ldx #0
    ldy z_t1
covered:
    lda eb_h,y
    cmp eb_min08
    bne not_lowest
    cpy #9
    bcs not_lowest
    inc z_t7
not_lowest:
    stx z_s1
    ldx z_t3
    lda gen_shape_column,x
    lsr
    lsr
    sta z_t4                ; highest cell + 2
    lda gen_shape_column,x
    and #$03
    sec
    sbc z_t4
    sta z_delta             ; cells in the column - 1 (z_delta is free by now)
    ldx z_s1
    lda z_s0
    sec
    sbc z_t4
    sta nh,x                ; the new height
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
    clc                     ; holes = new height - (filled + cells)
    sbc eb_f,y
    sec
    sbc z_delta
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
    inc z_t3
    inx
    iny
    cpy z_t2
    bne covered
    ; bump pairs: the left boundary, inside the covered range, the right boundary
    ldy z_t1
    beq no_left             ; column 0 has no pair to its left
    cpy #9
    bcs no_left             ; the pair 8-9 is not counted
    lda eb_h-1,y
    sec
    sbc nh
    jsr add_bump
no_left:
    ldx #0
inner:
    inx
    cpx z_t0
    bcs inner_done
    txa
    clc
    adc z_t1                ; the pair's right column
    cmp #9
    bcs inner_done          ; the pair 8-9 is not counted
    lda nh-1,x
    sec
    sbc nh,x
    jsr add_bump
    jmp inner
inner_done:
    ldy z_t2
    cpy #9
    bcs no_right            ; covering column 8 or 9: no pair to the right
    ldx z_t0
    lda nh-1,x
    sec
    sbc eb_h,y
    jsr add_bump
no_right:
    ; the extremes: highest of 0-8 and of 3-6 known; the lowest of 0-8 searched when a
    ; lowest column was covered; the well column. The covered range moves to z_t3/z_t4.
    lda z_t1
    sta z_t3                ; c0
    lda z_t2
    sta z_t4                ; c1
    lda z_t5
    sta z_t0
    lda z_t6
    sta z_t2
    lda eb_min08
    sta z_t1
    lda z_t7
    beq lowest_known
    lda #$FF
    sta z_t1
    ldy #8
lowest:
    lda eb_h,y
    cpy z_t3
    bcc uncovered
    cpy z_t4
    bcs uncovered
    tya
    sec
    sbc z_t3
    tax
    lda nh,x
    jmp compare
uncovered:
    lda eb_h,y
compare:
    cmp z_t1
    bcs not_lower
    sta z_t1
not_lower:
    dey
    bpl lowest
lowest_known:
    lda eb_h+9              ; the well column, covered or not
    ldy z_t4
    cpy #10
    bne well_known
    lda #9
    sec
    sbc z_t3
    tax
    lda nh,x
well_known:
    sta z_t3
    jmp ai_extremes_cost

; Lines cleared (rare: a few of the evaluations of a search): the placement is made in eb's rows
; for the moment (the undo record of a candidate applied meanwhile, and the columns, are kept on
; the stack), the columns recomputed and evaluated in full, and everything put back. The row
; costs are already in z_delta (a full row costs what an empty one does).
with_clear:
    ldx #COLUMNS-1
save:
    lda eb_h,x
    pha
    lda eb_f,x
    pha
    dex
    bpl save
    ldx #4
save_undo:
    lda ud_rows,x           ; ud_rows and ud_count are adjacent
    pha
    dex
    bpl save_undo
    jsr apply_rows
    jsr ai_recompute_columns
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
    jsr ai_extremes_cost_eb
    jsr undo_rows
    ldx #0
unsave_undo:
    pla
    sta ud_rows,x
    inx
    cpx #5
    bne unsave_undo
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




; Makes the placement z_o at (z_x, z_y) part of eb: cells above the visible rows are dropped,
; full rows removed (remembered in ud_rows for the undo), columns and caches rebuilt.
; z_lines = lines cleared (0 when it tops out: nothing is cleared then, as in the reference).
.proc ai_apply_placement
    jsr apply_rows
    jmp ai_prepare_board
.endproc

; The rows of ai_apply_placement only (pm holds the piece's cells afterwards).
.proc apply_rows
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
    rts
.endproc

; Takes the placement z_o at (z_x, z_y) out of eb again after ai_apply_placement: the cleared
; rows (they were full) go back in their places, then the piece's cells are removed.
.proc ai_undo_placement
    jsr ai_piece_masks
    jsr undo_rows
    jmp ai_prepare_board
.endproc

; The rows of ai_undo_placement only (pm must hold the piece's cells).
.proc undo_rows
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
    rts
.endproc

.segment "AI_CODE_HI"

;The shape data of orientation z_o the evaluation uses, unpacked once per sweep.
.proc ai_load_target
    ldx z_o
    stx tg_o
    txa
    asl
    asl
    sta z_s0                ; o*4
    ldy z_s0                ; rows with cells
    ldx #0
    lda #0
    sta z_s1                ; slot
row:
    lda gen_shape_runs,y
    beq empty
    sta tg_offr,x           ; (run byte for now)
    lda z_s1
    sec
    sbc #2
    sta tg_roff,x
    lda tg_offr,x
    lsr
    lsr
    lsr
    lsr
    sec
    sbc #2
    sta tg_offl,x           ; leftmost dx: the left neighbour's cell index is x + dx
    lda tg_offr,x
    and #$0F
    sec
    adc tg_offl,x           ; dx + length + 1: the right neighbour's cell index offset
    sta tg_offr,x
    inx
empty:
    iny
    inc z_s1
    lda z_s1
    cmp #4
    bne row
    stx tg_nslots
    rts
.endproc

; z_cost += bump cost of the height difference A (signed). Keeps X, Y.
.proc add_bump
    bcs positive            ; C from the subtraction: no borrow, A >= 0
    eor #$FF
    adc #1
positive:
    sty z_s1
    tay
    lda gen_bump_lo,y
    clc
    adc z_cost
    sta z_cost
    lda gen_bump_hi,y
    adc z_cost+1
    sta z_cost+1
    ldy z_s1
    rts
.endproc


