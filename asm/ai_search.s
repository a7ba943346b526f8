; The two-ply search (AI_DESIGN.md): ai_precompute while the previous piece falls, ai_finalize
; at spawn. Inputs: base (the board the piece spawns into), s_type, s_level, s_lines_lo/hi,
; s_btype, s_hold. Results: cand_* (the K best placements of the piece) and, per type the preview
; may show, best_k (the candidate to play) and best_total.
.include "ai.inc"
.include "ai_gen.inc"

.import ai_eval_placement, ai_apply_placement, ai_sweep_type, ai_set_gravity_rows
.import ai_board_caches, ai_base_to_eb

.export lv_level, lv_lo, lv_hi
.segment "AI_BSS"
ply2_k:      .res 1
lv_level:    .res 1     ; level state being advanced by ai_after_lines
lv_lo:       .res 1
lv_hi:       .res 1

.segment "AI_CODE_HI"

; K for frames per drop A: 2 when A = 1 (level 29 and beyond), else 3.
.proc set_keep
    ldx #K_MAX
    cmp #1
    bne keep
    dex
keep:
    stx s_keep
    rts
.endproc

; Frames per drop at level A -> A.
.proc frames_per_drop
    cmp #29
    bcc table
    lda #29
table:
    tax
    lda gen_frames_per_drop,x
    rts
.endproc

; lv_* advanced by A cleared lines with the game's rule (per line: BCD count, and a level-up
; when the units reach 0 and the level is below the BCD tens, compared signed). B-Type: no change.
.proc ai_after_lines
    ldx s_btype
    bne done
    tax
    beq done
line:
    inc lv_lo
    lda lv_lo
    and #$0F
    cmp #$0A
    bcc units_ok
    lda lv_lo
    clc
    adc #$06
    sta lv_lo
    and #$F0
    cmp #$A0
    bcc units_ok
    lda lv_lo
    and #$0F
    sta lv_lo
    inc lv_hi
units_ok:
    lda lv_lo
    and #$0F
    bne next
    lda lv_hi               ; tens = (hi:lo) >> 4, low byte
    sta z_t0
    lda lv_lo
    lsr z_t0
    ror
    lsr z_t0
    ror
    lsr z_t0
    ror
    lsr z_t0
    ror
    sta z_t0
    lda lv_level
    cmp z_t0
    bpl next
    inc lv_level
next:
    dex
    bne line
done:
    rts
.endproc

; A reachable placement (z_o, z_x, z_y, z_rot): first ply, keep it among the K best; second
; ply, keep the best cost. Yields to the game afterwards.
.proc ai_on_target
    jsr ai_eval_placement
    lda s_ply
    cmp #1
    beq first_ply
    lda z_cost+1            ; second ply: best = min(best, cost)
    cmp best_hi
    bcc better
    bne out
    lda z_cost
    cmp best_lo
    bcs out
better:
    lda z_cost
    sta best_lo
    lda z_cost+1
    sta best_hi
out:
    jmp ai_yield
first_ply:
    ; at = count; while at > 0 and cost < cand_cost[at-1]: at--
    ldx cand_count
find:
    beq found
    lda z_cost+1
    cmp cand_cost_hi-1,x
    bcc lower
    bne found
    lda z_cost
    cmp cand_cost_lo-1,x
    bcs found
lower:
    dex
    jmp find
found:
    cpx s_keep
    bcs out                 ; not among the K best
    stx z_t0                ; at
    ; move candidates at .. down one place (the last one drops off when the list is full)
    ldy cand_count
    cpy s_keep
    bcc move
    dey
move:
    cpy z_t0
    beq place
    lda cand_rot-1,y
    sta cand_rot,y
    lda cand_o-1,y
    sta cand_o,y
    lda cand_x-1,y
    sta cand_x,y
    lda cand_y-1,y
    sta cand_y,y
    lda cand_lines-1,y
    sta cand_lines,y
    lda cand_cost_lo-1,y
    sta cand_cost_lo,y
    lda cand_cost_hi-1,y
    sta cand_cost_hi,y
    lda cand_lcost_lo-1,y
    sta cand_lcost_lo,y
    lda cand_lcost_hi-1,y
    sta cand_lcost_hi,y
    dey
    jmp move
place:
    ldx z_t0
    lda z_rot
    sta cand_rot,x
    lda z_o
    sta cand_o,x
    lda z_x
    sta cand_x,x
    lda z_y
    sta cand_y,x
    lda z_lines
    sta cand_lines,x
    lda z_cost
    sta cand_cost_lo,x
    lda z_cost+1
    sta cand_cost_hi,x
    ; the lines cost alone: COST_MAX when the placement tops out
    lda #$FF
    sta cand_lcost_lo,x
    sta cand_lcost_hi,x
    lda z_cost
    and z_cost+1
    cmp #$FF
    beq counted
    ldy z_lines
    lda gen_lines_lo,y
    sta cand_lcost_lo,x
    lda gen_lines_hi,y
    sta cand_lcost_hi,x
counted:
    lda cand_count
    cmp s_keep
    bcs full
    inc cand_count
full:
    jmp ai_yield
.endproc

; eb = base + candidate X; z_o, z_x, z_y of it.
.proc eb_with_candidate
    stx ply2_k
    jsr ai_base_to_eb
    ldx ply2_k
    lda cand_o,x
    sta z_o
    lda cand_x,x
    sta z_x
    lda cand_y,x
    sta z_y
    jmp ai_apply_placement
.endproc

; The search for s_type on base (see the top of this file).
.proc ai_precompute
    lda #0
    sta stat_evals
    sta stat_evals+1
    sta cand_count
    lda s_level
    jsr frames_per_drop
    pha
    jsr set_keep
    pla
    ldx s_hold
    cpx #1                  ; C = hold
    jsr ai_set_gravity_rows
    ; first ply on the base board
    jsr ai_base_to_eb
    jsr ai_board_caches
    lda #1
    sta s_ply
    lda s_type
    sta z_type
    jsr ai_sweep_type
    ; second ply: for each candidate, the best reply of each type
    lda #2
    sta s_ply
    lda #0
    sta ply2_k
candidate:
    lda ply2_k
    cmp cand_count
    bcc more
    rts
more:
    tax
    jsr eb_with_candidate
    lda s_level             ; the level when the reply spawns
    sta lv_level
    lda s_lines_lo
    sta lv_lo
    lda s_lines_hi
    sta lv_hi
    ldx ply2_k
    lda cand_lines,x
    jsr ai_after_lines
    lda lv_level
    jsr frames_per_drop
    clc                     ; no hold
    jsr ai_set_gravity_rows
    lda #0
    sta z_type
reply_type:
    lda #$FF
    sta best_lo
    sta best_hi
    jsr ai_sweep_type
    ; total = lines cost of the candidate + best reply (saturating)
    ldx ply2_k
    ldy z_type
    lda cand_lcost_lo,x
    clc
    adc best_lo
    sta z_t0
    lda cand_lcost_hi,x
    adc best_hi
    sta z_t1
    bcc no_overflow
    lda #$FF
    sta z_t0
    sta z_t1
no_overflow:
    cpx #0
    beq take
    lda z_t1
    cmp best_total_hi,y
    bcc take
    bne skip
    lda z_t0
    cmp best_total_lo,y
    bcs skip
take:
    lda z_t0
    sta best_total_lo,y
    lda z_t1
    sta best_total_hi,y
    txa
    sta best_k,y
skip:
    inc z_type
    lda z_type
    cmp #7
    bne reply_type
    inc ply2_k
    jmp candidate
.endproc

; A = preview type (NO_PREVIEW when the preview is off) -> X = chosen candidate, C = 1; C = 0
; when there is no candidate.
.proc ai_finalize
    ldx cand_count
    beq none
    ldx #0
    cmp #7
    bcs chosen
    tay
    ldx best_k,y
chosen:
    sec
    rts
none:
    clc
    rts
.endproc
