; The two-ply search (AI_DESIGN.md): ai_precompute while the previous piece falls (the choice at
; spawn: ai_task.s, decide). Inputs: eb_lo/eb_hi (the board the piece spawns into), s_type,
; s_level, s_lines_lo/hi, s_btype, s_hold. Results: cand_* (the K best placements of the piece)
; and, per type the preview may show, best_k (the candidate to play) and best_total. eb is left
; as given (with its columns and caches).
.include "ai.inc"
.include "hooks.inc"

; s_level / s_lines_lo / s_lines_hi advanced by A cleared lines with the game's rule (per line:
; BCD count, and a level-up when the units reach 0 and the level is below the BCD tens, compared
; signed). B-Type: no change.
.segment "RAM_ai_after_lines"
.proc ai_after_lines
    ldx s_btype
    bne done
    tax
    beq done
line:
    inc s_lines_lo
    lda s_lines_lo
    and #$0F
    cmp #$0A
    bcc next                ; units 1-9 (the counter is BCD: they were 0-8): no level-up
    lda s_lines_lo
    adc #$06-1              ; (C = 1)
    cmp #$A0                ; (the units are 0 now: the tens, $A and up)
    bcc tens_ok
    and #$0F
    inc s_lines_hi
tens_ok:
    sta s_lines_lo          ; a tenth line: the level-up test
    lda s_lines_hi          ; the tens, (hi:lo) >> 4's low byte: lo's high nibble (its low one
    and #$0F                ; is 0 here) and hi's low one, swapped
    ora s_lines_lo
    asl                     ; (swaps the nibbles)
    adc #$80
    rol
    asl
    adc #$80
    rol
    eor #$FF                ; level - tens: the game's signed compare
    sec
    adc s_level
    bpl next
    inc s_level
next:
    dex
    bne line
done:
    rts
.endproc

; The placement ai_eval_placement evaluated (Z = 1: not stopped at the bound): a candidate
; (first ply) or the best reply so far (second ply, and hate mode's sweeps: s_ply 0) if it beats
; the one to beat (the sweep's ai_on_target, ai_reach.s).
.segment "RAM_ai_take_evaluated"
.proc ai_take_evaluated
at         = z_t0           ; the place the placement takes among the candidates
    lda s_ply
    lsr
    bcs first_ply           ; (s_ply 1)
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
    ldx s_ply               ; (X is free: the sweep sets it again)
    beq hate                ; hate mode: the type may be out of the running now
out:
    rts
hate:
    jmp hate_type_beaten
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
    bpl find                ; (always)
found:
    cpx s_keep
    bcs out                 ; not among the K best
    stx at
    ; move candidates at .. down one place (the last one drops off when the list is full)
    ldy cand_count
    cpy s_keep
    bcc move
    dey
move:
    cpy at
    beq place
    tya
    tax
field:                      ; the six candidate fields, adjacent, K_MAX bytes each
    lda cand_rot-1,x
    sta cand_rot,x
    txa
    clc
    adc #K_MAX
    tax
    cpx #6*K_MAX
    bcc field               ; (Y < K_MAX)
    dey
    bpl move                ; (always: Y >= at)
place:
    ldx at
    ldy #0                  ; z_rot .. z_cost+1 into the six fields (ai_ram.s keeps both in order)
.assert z_x = z_rot + 1 && z_y = z_rot + 2 && z_lines = z_rot + 3 && z_cost = z_rot + 4, error, "the placement's fields are out of order"
.assert cand_x = cand_rot + K_MAX && cand_y = cand_x + K_MAX && cand_lines = cand_y + K_MAX && cand_cost_lo = cand_lines + K_MAX && cand_cost_hi = cand_cost_lo + K_MAX, error, "the candidate fields are out of order"
copy:
    lda z_rot,y
    sta cand_rot,x
    txa
    clc
    adc #K_MAX
    tax
    iny
    cpy #6
    bne copy
    ldx cand_count
    cpx s_keep
    bcs full
    inx
    stx cand_count
    cpx s_keep
    bcc bound_known         ; not full yet
full:                       ; (X = cand_count = s_keep: the list never holds more than K)
    lda cand_cost_lo-1,x    ; full: the K-th cost is the one to beat
    sta best_lo
    lda cand_cost_hi-1,x
    sta best_hi
bound_known:
    rts
.endproc

; z_o, z_x, z_y of candidate X (the piece s_type), or of candidate ply2_k from
; ply2_k_placement. Clobbers X, Y.
.segment "RAM_ai_candidate_placement"
ply2_k_placement:
    ldx ply2_k
.proc ai_candidate_placement
    lda cand_x,x
    sta z_x
    lda cand_y,x
    sta z_y
    ldy s_type
    lda game_spawnTable,y
    ldy cand_rot,x          ; slot r: A pressed r times (B once, slot 3, turns as A three times)
    beq done                ; slot 0: the spawn orientation
clockwise:
    asl                     ; (the game's rotationTable: two bytes an orientation, B's then A's)
    tax
    lda game_rotationTable+1,x
    dey
    bne clockwise
done:
    sta z_o
    rts
.endproc

; The search's terms for eb at s_level, as the reference's precompute and hate_choice take them
; (the same for both, so written once): s_top2 (the high rows from level 128), K (s_keep, no
; hold), the tables (s_lines_off, s_stack_off: fast at one row a frame, danger on a stack
; DANGER_HEIGHT high) and eb's caches in those terms. A = frames per drop.
.segment "RAM_ai_search_terms"
.proc ai_search_terms
    .assert AI_POLL_PAUSE_LEVEL = $80, error, "the high rows' rule starts at the level's bit 7"
    lda #0+2                ; a placement's top row from level 128: HIGH_ROWS or below (a block
    bit s_level             ; in row 5 would move the scoring frame's time: the crash rule)
    bpl top_known
    lda #HIGH_ROWS+2
top_known:
    sta s_top2
    jsr frames_per_drop
    pha                     ; (the result)
    ldx #KEEP_FAST          ; K, and the stack term's table: KEEP_FAST and the second table at
    ldy #STACK_FAST_OFFSET  ; level 29 and beyond (one row a frame), for both plies; and the
    cmp #2                  ; lines term's: the third there, the second below level 29 on a
    lda #LINES_FAST_OFFSET  ; stack DANGER_HEIGHT high (in danger)
    bcc keep
    ldx #KEEP
    ldy #0
    lda eb_max08
    cmp #DANGER_HEIGHT
    lda #0
    bcc keep
    lda #LINES_DANGER_OFFSET
keep:
    sta s_lines_off
    eor #LINES_DANGER_OFFSET ; in danger the well's holes are free: their count masked to 0
    cmp #1
    lda #0
    sbc #0
    eor #$FF
    stx s_keep
    pha
    jsr ai_row_tables       ; (the rows' step by Y, the speed's)
    pla
    bcs terms_changed
    cpy s_stack_off         ; eb's caches (eb_base, the hole sums, the rows' sum) were worked out
    bne terms_changed       ; in the terms of the search before: again only when this one's differ
    cmp s_well_holes
    beq terms_same
terms_changed:
    sta s_well_holes
    sty s_stack_off
    jsr ai_board_caches
terms_same:
    pla                     ; frames per drop
    rts
.endproc

; The search for s_type on eb (see the top of this file).
.segment "RAM_ai_precompute"
.proc ai_precompute
    jsr ai_prepare_board
.endproc
; fall through
; ai_precompute on an eb whose columns are current (ai_apply_placement keeps them; the caches
; are computed again here, in the search's terms).
.proc ai_precompute_prepared
limit_lo   = z_t0           ; the first ply's cost limit below level 29
limit_hi   = z_t1
    lda #0
    sta cand_count
    sta eb_state            ; (EB_SPAWN)
    jsr ai_search_terms     ; A = frames per drop
    bit s_hold              ; (bit 7: the hold, autorepeatY's sign)
    clc
    bpl not_first
    ldy #KEEP_FAST          ; a game's first piece: K = KEEP_FAST (it must be done in the hold)
    sty s_keep
    sec                     ; (ai_set_gravity_rows: C = hold)
not_first:
    jsr ai_set_gravity_rows
    ; first ply
    lda #$FF                ; nothing to beat until K are kept
    sta best_lo
    sta best_hi
    lda #1
    sta s_ply
    lda s_type
    sta z_type
    jsr ai_sweep_type
    lda s_stack_off         ; below level 29 only: at one row a frame every candidate goes on
    bne second_ply
    lda eb_max08            ; and below MARGIN_HEIGHT: on a high stack too
    cmp #MARGIN_HEIGHT
    bcs second_ply
    ; else only the candidates whose cost is at most the best one's + KEEP_MARGIN go on (sorted
    ; by cost, so the first one beyond ends the list); a limit past $FFFF keeps all, as the
    ; reference's saturating sum does
    lda cand_cost_lo        ; (C = 0: bcs above)
    adc #<KEEP_MARGIN
    sta limit_lo
    lda cand_cost_hi
    adc #>KEEP_MARGIN
    bcs second_ply
    sta limit_hi
    ldx #1
near:
    cpx cand_count
    bcs second_ply
    lda limit_lo
    cmp cand_cost_lo,x
    lda limit_hi
    sbc cand_cost_hi,x
    bcc cut                 ; limit < cost
    inx
    bne near
cut:
    stx cand_count
second_ply:
    ; second ply: for each candidate, the best reply of each type
    jsr save_spawn_board    ; (each candidate is taken off by copying eb back)
    inc s_ply               ; (1: the first ply's) 2
    lda #0
    sta ply2_k
    sta ply2_first
    lda #PIECE_TYPES
    sta ply2_end
    jsr coach_spawn_search  ; (a coach game at the spawn: the first ghost, the preview's type alone)
.endproc
; fall through
; The second ply from candidate ply2_k on, for the reply types ply2_first .. ply2_end - 1 (all of
; them in a search; the preview's alone when a search cut short at the spawn is finished for it,
; see late_spawn). The candidates before ply2_k have their replies in best_total and best_k.
.proc ply2_candidates
total_lo   = z_t0           ; a candidate's total with a reply: lines cost + best reply
total_hi   = z_t1
candidate:
    lda ply2_k
    cmp cand_count
    bcc more
    rts
more:
    ldy ply2_first          ; (set before eb changes: late_spawn reads it as the type reached)
    sty z_type
    tax
    ; lc = the candidate's lines cost: COST_MAX when it tops out
    lda #$FF
    sta lc_hi
    and cand_cost_lo,x
    and cand_cost_hi,x
    cmp #$FF
    beq topped_out          ; (A = $FF)
    lda cand_lines,x        ; (C = 0)
    adc s_lines_off         ; the search's lines table
    tay
    lda gen_lines_hi,y
    sta lc_hi
    lda gen_lines_lo,y
topped_out:
    sta lc_lo
    jsr ai_candidate_placement
    inc eb_state            ; EB_CHANGING
    jsr ai_apply_placement
    inc eb_state            ; EB_CANDIDATE
    ldx #2                  ; the level when the reply spawns: the piece's, after its lines
keep_level:                 ; (s_level, s_lines_lo, s_lines_hi kept on the stack)
    lda s_level,x
    pha
    dex
    bpl keep_level
    ldx ply2_k
    lda cand_lines,x
    jsr ai_after_lines
    jsr frames_per_drop
    clc                     ; no hold
    jsr ai_set_gravity_rows
    ldx #$100-3
restore_level:
    pla
    sta s_level+3-$100,x
    inx
    bne restore_level
reply_type:
    ; the reply to beat: any for the first candidate; for a later one, what makes its total
    ; lower than the best total so far (none: the sweep is skipped)
    lda #$FF
    sta best_lo
    sta best_hi
    ldy z_type
    ldx ply2_k
    beq sweep
    lda best_total_lo,y
    sec
    sbc lc_lo
    sta best_lo
    lda best_total_hi,y
    sbc lc_hi
    sta best_hi
    bcc skip                ; total >= the best one whatever the reply
    ora best_lo
    beq skip
sweep:
    jsr ai_sweep_type
    ; total = lines cost of the candidate + best reply (saturating)
    lda lc_lo
    clc
    adc best_lo
    sta total_lo
    lda lc_hi
    adc best_hi
    sta total_hi
    bcc no_overflow
    lda #$FF
    sta total_lo
    sta total_hi
no_overflow:
    ldy z_type
    ldx ply2_k
    beq take
    lda total_lo
    cmp best_total_lo,y
    lda total_hi
    sbc best_total_hi,y
    bcs skip                ; total >= the best total
take:
    lda total_lo
    sta best_total_lo,y
    lda total_hi
    sta best_total_hi,y
    txa
    sta best_k,y
skip:
    inc z_type
    lda z_type
    cmp ply2_end
    bne reply_type
candidate_done:
    lda finishing           ; a finish (late_spawn, the preview's type alone): the best for the
    beq undo                ; preview so far goes out at once, this candidate's reply counted
    ldy ply2_first          ; (the driver takes the latest plan at the piece's first input frame)
    ldx best_k,y
    jsr publish
    ldx ply2_k              ; eb back to the board the piece spawns into, but for a finish's last
    inx                     ; candidate: its plan is out (late_spawn)
    cpx cand_count
    bcc undo
    rts
undo:
    jsr restore_spawn_board ; (no yield: eb goes from the candidate's to EB_SPAWN at once)
    lda #EB_SPAWN
    sta eb_state
    inc ply2_k
    jmp candidate
.endproc

; The second ply for the preview's type alone (ply2_first), from where the search stopped (a
; finish: late_spawn, ai_task.s): on in the candidate eb has, or from candidate fin_from.
.proc finish_search
    lda fin_from
    ldx eb_state
    beq from_fin            ; EB_SPAWN
    cmp ply2_k
    bne ply2_candidates::candidate_done ; the candidate's reply of this type is known
    lda ply2_first
    sta z_type
    jmp ply2_candidates::reply_type
from_fin:
    sta ply2_k
    jmp ply2_candidates
.endproc

; A = frames per drop at level s_level.
.segment "RAM_frames_per_drop"
.proc frames_per_drop
    lda s_level
    cmp #29
    bcc table
    lda #29
table:
    tax
    lda game_framesPerDropTable,x
    rts
.endproc
