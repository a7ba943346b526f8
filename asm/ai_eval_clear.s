; The evaluation's line-clear path (ai_eval.s, ai_eval_placement, tests the first bound of a
; clear and falls through to here): the crash rule's barred clears, then the placement made in
; eb's rows for the moment, its columns recomputed and evaluated in full, and everything put back.
; And the stack term's growth, which both paths use.
.include "ai.inc"

.import ai_eval_tops_out, ai_eval_past_clear_bound, ai_soft_drop_level
.export ai_stack_growth

.segment "AI_EVAL"           ; right after ai_eval.s's part of it (asm/CMakeLists.txt: link order)
.assert ai_eval_clear = ai_eval_past_clear_bound, lderror, "ai_eval.s must fall through into ai_eval_clear: link ai_eval_clear.s right after it"
.proc ai_eval_clear
    ; A lock the crash rule bars is a top-out (after the bound: one it stops at could not have
    ; been chosen either way). Its class: 2 * lines + whether they change the lines counter's
    ; tens digit; barred when its spawn level is in the class's range (gen_crash_first, _count).
    lda s_lines_lo
    and #$0F
    clc
    adc z_lines
    cmp #10                 ; (C: the tens change)
    lda z_lines
    rol
    tay
    lda s_level
    sec
    sbc gen_crash_first-2,y
    cmp gen_crash_count-2,y
    bcs not_barred
tops_out:
    jmp ai_eval_tops_out
not_barred:
    ; At a soft-drop level from 128 a clear that may fall too short with Down held to make the
    ; points (its origin's row above gen_soft_drop_rows by column) is barred where its class needs
    ; them (gen_short_first, _count). (Level 128 is the level's bit 7: ai_soft_drop_level asserts
    ; it; it keeps A and Y.)
    lda s_level
    bpl clear_below
    jsr ai_soft_drop_level
    bcs clear_below
    ldx z_x
    lda z_y
    cmp gen_soft_drop_rows,x
    bcs clear_below
    lda s_level
    sec
    sbc gen_short_first-2,y
    cmp gen_short_count-2,y
    bcc tops_out
clear_below:
    ldx #COLUMNS-1
save:
    lda eb_h,x
    pha
    dex
    bpl save
    jsr ai_piece_masks
    jsr toggle_piece        ; the full rows stay where they are
    clc
    jsr piece_cells         ; eb_f: + the piece's cells (the cleared rows' are taken below)
    ; eb_h after the placement, whose cells are in eb's rows, clears its z_lines full rows
    ; (still in place). The first full row r0 holds a cell of every column, so a column's top
    ; lies either above r0 (it sinks by z_lines) or in r0 (its new top is the first cell below r0
    ; in a row that stays, lowered by the full rows under it).
hc_new_top = z_t3           ; 22 - y (a cell's height is this - (its row offset + 2))
hc_r0      = z_t3           ; the first full row
hc_r0_height = z_t6         ; 20 - r0: the height of a top in r0
hc_full_below = z_t2        ; full rows at or below the row at hand (r0 counted)
    jsr shape_columns       ; the piece's columns: their tops are the piece's
    lda #22
    sec
    sbc z_y
    sta hc_new_top          ; 22 - y: a cell's height is this - (its row offset + 2)
hc_cover:
    lda gen_shape_column,x
    lsr
    lsr                     ; highest cell + 2
    eor #$FF
    sec
    adc hc_new_top
    sta eb_h,y
    inx
    iny
    dec shape_columns_left
    bne hc_cover
    ; r0 = the first full row among y-2 .. y+1 (a full row holds a piece cell: row >= 0)
    lda z_y
    sec
    sbc #2
    bpl hc_first_row
    lda #0                  ; (rows above the board)
hc_first_row:
    tay
hc_find:
    lda eb_lo,y
    cmp #$FF
    bne hc_not_full
    lda eb_hi,y
    cmp #$0F
    beq hc_found
hc_not_full:
    iny
    bne hc_find             ; (always)
hc_found:
    sty hc_r0
    tya
    eor #$FF
    sec
    adc #ROWS
    sta hc_r0_height        ; 20 - r0: the height of a top in r0
    ldx #COLUMNS-1
hc_column:
    lda eb_h,x
    cmp hc_r0_height
    beq hc_scan             ; its top is in r0
    sec
    sbc z_lines             ; (C = 1: a top above r0 is more than z_lines high)
    bcs hc_store
hc_scan:
    ldy hc_r0               ; rows below r0: full ones are skipped, each leaves one less below
    lda z_lines
    sta hc_full_below       ; full rows at or below the row at hand, r0 counted
hc_below:
    iny
    cpy #ROWS
    bcs hc_bottom
    lda eb_lo,y
    cmp #$FF
    bne hc_stays
    lda eb_hi,y
    cmp #$0F
    bne hc_stays
    dec hc_full_below       ; a full row
    bcs hc_below            ; (always: C = 1 from the cmp)
hc_stays:
    lda eb_lo,y
    and gen_bit_lo+1,x
    bne hc_cell
    lda eb_hi,y
    and gen_bit_hi+1,x
    beq hc_below
hc_cell:
    dec hc_full_below       ; (r0 is above)
    tya
    clc
    adc hc_full_below       ; row + full rows below it
    eor #$FF
    sec
    adc #ROWS               ; 20 - that
    .byte $2C               ; (BIT abs: skips the LDA #0)
hc_bottom:
    lda #0
hc_store:
    sta eb_h,x
    dex
    bpl hc_column

    ; z_cost += the holes, stack, spawn, well and gap costs of eb after the placement: eb_h as
    ; they are then, eb_f with the piece's cells but not yet less the cleared rows' (each took
    ; one cell of every column). One pass over the columns.
    lda #0
    sta max08               ; highest of 0-8
    sta max38               ; highest of SPAWN_TERM_FIRST-8
    lda #$FF
    sta min08               ; lowest of 0-8
    ldx #0
cc_column:
    lda eb_h,x              ; holes: height - (filled - lines)
    clc
    adc z_lines
    holes_of_column
    add_cost gen_hole
    cpx #COLUMNS-1
    beq cc_well
    lda eb_h,x
    cmp max08
    bcc cc_not_highest
    sta max08
cc_not_highest:
    cmp min08
    bcs cc_not_lowest
    sta min08
cc_not_lowest:
    cpx #SPAWN_TERM_FIRST
    bcc cc_gap              ; (column 9 went to well above)
    cmp max38
    bcc cc_gap
    sta max38
cc_gap:
    lda eb_h-1,x            ; the lower neighbour (the wall left of column 0) ...
    cmp eb_h+1,x
    bcc cc_lower
    lda eb_h+1,x
cc_lower:
    sec
    sbc eb_h,x              ; ... above the column
    bcc cc_next
    tay
    clamp_gap_y
    add_cost gen_gap
cc_next:
    inx
    bne cc_column           ; (always)
cc_well:
    lda eb_h+COLUMNS-1
    sta well_h
    jsr ai_extremes_cost
    jsr toggle_piece        ; (out again)
    sec
    jsr piece_cells         ; eb_f back
    ldx #$100-COLUMNS
unsave:
    pla
    sta eb_h+COLUMNS-$100,x
    inx
    bne unsave
    rts
.endproc

; A:X = gen_stack[A] - gen_stack[eb_max08] (A a height above eb_max08), in the search's stack
; table. Clobbers Y and diff_lo.
.proc ai_stack_growth
diff_lo    = z_s0           ; the low byte of the difference
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
    rts
.endproc
