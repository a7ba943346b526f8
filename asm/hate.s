; Hate mode's adversary (AI_DESIGN.md "Hate mode", issue 53; the reference: hate_choice,
; ai-reference/ai/ai_hate.cpp): the piece type whose best placement on eb costs most. Each type's
; lowest cost is the second ply's measure of a reply (ply2_candidates, ai_search.s), swept by the
; same routines: the gravity of the level seen (no hold), the search's terms at that level (fast
; at one row a frame, danger on a high stack), the crash rule at that level. In a hate game the
; task calls it (hate_choose: before the search ahead, or at a person's lock) and hate_deal deals
; its type at the spawn.
.include "ai.inc"
.include "hooks.inc"

.segment "AI_BSS_PLAN"  ; (PRG_RAM_CLEARED: 0 before every game, then set by level_start's chord)
hate_on:      .res 1    ; nonzero: hate mode, this game
hate_for:     .res 1    ; spawnCount at the spawn hate_type is chosen for (the task sets it before
                        ; that spawn; level_start, a value no spawn before the task's first choice
                        ; has; hate_deal, once it has dealt, one less)

.segment "AI_BSS"
hate_type:    .res 1    ; the type to deal (0-6: T J Z O S L I)
hate_cost_lo: .res 1    ; its lowest cost, the highest of the seven (0 when that is 0: type 0)
hate_cost_hi: .res 1
hate_depth:   .res 1    ; the task's stack bytes below co_sp at a type's sweep (co_sp - S): a
                        ; yield moves the task's frames, not their depth below co_sp

; hate_type from eb (its rows: the board after the last lock, its lines cleared) at s_level,
; s_lines_lo/hi, s_btype (the level and lines after that lock). The types are scanned 0 to 6 and
; one replaces the one kept only when its lowest cost is strictly higher, so among equal costs
; the lowest index stays; every type lost (all COST_MAX): T. Starting from a kept cost of 0
; rather than type 0's own makes no difference: type 0 stays either way, and its cost is kept
; unless it is 0. A type's sweep is abandoned once the type cannot be dealt (hate_type_beaten):
; the same type dealt, and hate_cost exact (the type dealt is never stopped).
; Clobbers the search's state (s_ply, s_top2, the tables, the gravity, best):
; it runs between searches.
.segment "RAM_ai_hate"
.proc ai_hate
    jsr ai_prepare_board
    jsr ai_search_terms     ; A = frames per drop
    clc                     ; the piece dealt falls after a spawn: no hold
    jsr ai_set_gravity_rows
    lda #0                  ; (ai_take_evaluated: a reply's lowest cost, then hate_type_beaten)
    sta s_ply
    sta z_type
    sta hate_type
    sta hate_cost_lo
    sta hate_cost_hi
type:
    lda #$FF                ; nothing to beat: the type's lowest cost from COST_MAX
    sta best_lo
    sta best_hi
    tsx                     ; (hate_type_beaten comes back here by it)
    txa
    eor #$FF
    sec
    adc co_sp
    sta hate_depth
    jsr ai_sweep_type       ; (z_type kept)
    lda hate_cost_lo
    cmp best_lo
    lda hate_cost_hi
    sbc best_hi
    bcs next                ; kept >= this one: not strictly worse for the player
    lda best_lo
    sta hate_cost_lo
    lda best_hi
    sta hate_cost_hi
    lda z_type
    sta hate_type
next:                       ; (hate_type_beaten: a type that cannot be dealt)
    inc z_type
    lda z_type
    cmp #PIECE_TYPES
    bne type
    rts
.endproc

; Hate mode's shortcut, from ai_take_evaluated when the type's lowest cost so far (best) went
; down: once it is at most the highest kept, the type cannot be dealt (a type must cost strictly
; more), so the rest of its sweep is of no use. The sweep's frames are dropped and ai_hate goes
; on with the next type (the stack as it was at the sweep's call: hate_depth below co_sp, which
; resume sets to where it puts the task's frames back).
.segment "RAM_hate_type_beaten"
.proc hate_type_beaten
    lda hate_cost_lo
    cmp best_lo
    lda hate_cost_hi
    sbc best_hi
    bcc out                 ; kept < best: still in the running
    lda co_sp
    sec
    sbc hate_depth
    tax
    txs
    jmp ai_hate::next
out:
    rts
.endproc

; Hate mode in an AI game, from the task before the search ahead (ai_task.s: the choice, 6 frames
; on average, is then almost never late, and a late search still has its best so far): the type
; the preview's spawn deals, worst for the board after this piece's lock (eb now, its lines
; cleared, at the level after them), if the choice is done before that spawn; else resume drops
; it there (in_search IN_HATE: hate_late) and the game's draw stays.
.segment "RAM_hate_choose"
.proc hate_choose
    lda #IN_HATE
    sta in_search
    jsr ai_hate
    lda #0
    sta in_search
    ldx cur_id
    inx
    stx hate_for            ; (the spawn has not come: resume would have dropped the choice)
    rts
.endproc

; A person's hate game (the coach's, with hate_on: hooks_menu.s), from the task once the piece's
; plan (the ghost) is out: the board after the lock is the person's, known at the lock. So the task
; waits for it (play state LOCK, in the frame after the piece landed: its place still in
; currentPiece, tetriminoX and tetriminoY), puts it on eb (the board the piece spawned on) as the
; AI's own lock is put there, chooses in the entry delay (hate_choose), then searches for the next
; piece on the board the game shows at its spawn, as the coach does for a lock off the ghost. A
; lock that went by while the task was busy gets no choice (the game's draw stays). Other games:
; returns at once.
.segment "RAM_hate_person_lock"
.proc hate_person_lock
    lda hate_on
    beq out
    .assert AI_MODE_COACH = 1, error, "hate_person_lock tells the coach by dex"
    ldx ai_mode
    dex
    beq person
out:
    rts
person:
    pla                     ; (the task does not go back to the plan's placement)
    pla
wait_lock:
    jsr next_frame
    lda spawnCount
    cmp cur_id
    bne spawned             ; (the lock went by)
    lda playState
    cmp #PLAY_STATE_LOCK
    bne wait_lock
    lda currentPiece        ; (ai_apply_placement reads the shape from z_o)
    sta z_o
    lda tetriminoX
    sta z_x
    lda tetriminoY
    sta z_y
    jsr ai_apply_placement  ; eb: the board after the person's lock, its lines cleared
    lda z_lines
    jsr ai_after_lines
    jsr hate_choose
wait_spawn:                 ; (no search ahead: the coach's search at the spawn classes a lock
    jsr next_frame          ; that missed the ghost, coach_class_miss)
    bcs wait_spawn
    lda spawnCount
    cmp cur_id
    beq wait_spawn
spawned:
    sta cur_id
    jmp ai_task_read
.endproc

; savePlayer1State's end, in every play frame after the play state's routine and before the
; preview's sprites are staged: was lda numberOfPlayers / cmp #1 / beq @ret (3 + 2 + 3 cycles to
; the rts). Out of hate mode these take the same 8 (4 + 2 + 2), so human play keeps the
; original's cycles; A is 0 on the way out (the caller loads A before it reads it), X $FF as ever
; (in hate mode it may not be: nothing reads it before loading it).
hook_begin HATE_DEAL
    lda hate_on
    bne deal
    nop
    rts
deal:
    jmp hate_deal
hook_end HATE_DEAL

; Hate mode deals: in the frame of the spawn the choice was made for (the game has drawn the
; preview, and nothing has read it yet), the preview becomes the chosen type's spawn orientation.
; (A choice is made for the spawn after the next, so a hate_for left behind would come round again
; only after 255 spawns without one choice ready.)
; A choice not ready by then (the task was still at it: resume dropped it at the spawn) deals
; nothing: the game's own draw stays. The RNG, spawnID and the statistics stay the game's.
.segment "RAM_hate_deal"
.proc hate_deal
    lda spawnCount
    cmp hate_for
    bne out
    ldx hate_type
    lda game_spawnTable,x
    sta nextPiece
    dec hate_for            ; (dealt: the frames after this one keep the preview)
out:
    rts                     ; (X: stageSpriteForNextPiece, next, loads its own, or returns to
.endproc                    ; the main loop, which loads its own too)                    ; the main loop, which loads its own too)
