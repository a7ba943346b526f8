; The coach: a person's game (started with B held, hooks_menu.s) in which the cartridge shows,
; as a ghost, where the AI would place the falling piece. The game is the original's to the byte:
; the AI's task runs in the idle time as in its own games (ai_idle), but nobody takes its plan's
; buttons (ai_mode AI_MODE_COACH: ai_poll's human path); each plan it publishes (publish) is
; also kept as the ghost's placement (set_ghost), and ai_idle draws it on the sprites nothing
; else uses (coach_ghost). At the spawn the search knows the preview (coach_spawn_search): the
; best placement of the first ply is drawn at once, and the second ply needs the preview's type
; alone. Each lock of a piece that had a ghost is counted, and matched where the ghost was
; (coach_grade); a lock the full search had decided gets a class by its miss in the search's
; cost (AI_DESIGN.md "The coach's grade"): best at once when matched, else at the next piece's
; spawn search (coach_class_miss), whose first ply costs the person's board. The class's label
; shows for CLASS_FRAMES frames in the statistics box, then the game's accuracy in per cent (its
; label too under the curtain). The coach writes no byte of the game's RAM: only its own and the
; OAM staging page.
.include "ai.inc"
.include "hooks.inc"


.segment "AI_BSS_PLAN"
; The ghost: the placement the plan just published is for (the order of the game's tetriminoX,
; tetriminoY and currentPiece, which the grade compares it with in one loop).
ghost_x:     .res 1             ; its column
ghost_y:     .res 1             ; its landing row
ghost_o:     .res 1             ; its orientation (0-18)
; The locks the coach counted (those of a piece with a plan, the ghost at the lock) and the ones
; that locked where the ghost was; the classes (16 bits each: below COACH_OFF_LEVEL a game has
; at most about 3 250 pieces, from level 0, and the accuracy's sums need fewer than 3 277: ten
; points a lock); the classes'
; points and ten times the locks classed; grade_shown: the accuracy in per cent, + 1 (0: nothing
; classed yet). clear_ai_ram zeroes them before every game: the end of any game clears them.
grade_total:   .res 2
grade_matched: .res 2
class_lo:      .res LOCK_CLASSES
class_hi:      .res LOCK_CLASSES
grade_points:  .res 2
grade_tenths:  .res 2
grade_shown:   .res 1
class_shown:   .res 1           ; the last lock's class
class_timer:   .res 1           ; the frames its label still shows (0: the accuracy instead)
; The decision the class is measured against: grade_ready nonzero when grade_best is the full
; search's for piece grade_ready_id; a lock not matched waits (grade_pending) for the spawn
; search of piece grade_pending_id, the next one.
grade_ready:   .res 1
grade_ready_id: .res 1
grade_pending: .res 1
grade_pending_id: .res 1
ghost_early:   .res 1           ; nonzero while coach_spawn_search publishes the first ply's best
.assert ghost_y = ghost_x + 1 && ghost_o = ghost_y + 1, error, "coach_grade reads the ghost as one run"
.assert tetriminoY = tetriminoX + 1 && currentPiece = tetriminoY + 1, error, "coach_grade reads the lock as one run"

.segment "AI_BSS"               ; (PRG_RAM_VARS: each written before it is read)
grade_best_lo: .res PIECE_TYPES ; best_total of the decision grade_ready names, per next piece
grade_best_hi: .res PIECE_TYPES
grade_lines_off: .res 1         ; its lines table (s_lines_off: the root board's danger)
grade_lines:   .res 1           ; the lines the lock made (the game's completedLines)
grade_rem_lo:  .res 1           ; coach_class's remainder and steps (and coach_class_miss's sums)
grade_rem_hi:  .res 1
grade_steps:   .res 1

; The plan just published (plan_k of slot plan_at) as the ghost's placement; when the piece has
; locked already (a plan after the lock, for a piece the person placed before it came), a column
; with bit 7 set instead: no ghost to draw or to grade by. Clobbers A, X, Y and z_o, z_x, z_y
; (publish's callers find them again: ai_candidate_placement).
.segment "RAM_set_ghost"
.proc set_ghost
    ldy plan_at
    ldx plan_k,y
    jsr ai_candidate_placement
    lda z_o
    sta ghost_o
    lda z_y
    sta ghost_y
    lda z_x
    .assert PLAY_STATE_ACTIVE = 1, error, "set_ghost tells the falling piece by dex"
    ldx playState
    dex
    beq column
    ora #GHOST_NONE
column:
    sta ghost_x
    .assert AI_MODE_COACH = 1, error, "set_ghost tells the coach by dex"
    ldx ai_mode
    dex
    bne kept
    lda ghost_early             ; the first ply's best (coach_spawn_search): no decision for this
    beq decided                 ; piece yet (spawnCount wraps: an old one's would pass for it)
    lda #0
    sta grade_ready
    rts
decided:                        ; the full search's decision: kept for the lock's class
    ldx #PIECE_TYPES-1
best:
    lda best_total_lo,x
    sta grade_best_lo,x
    lda best_total_hi,x
    sta grade_best_hi,x
    dex
    bpl best
    lda s_lines_off
    sta grade_lines_off
    lda cur_id
    sta grade_ready_id
    lda #1
    sta grade_ready
kept:
    rts
.endproc

; ai_idle, in a coach game, at the start of the frame's idle time, while the game is on screen
; (not paused): the lines a lock makes (while the game counts them, until the next spawn); the
; last class's label for CLASS_FRAMES frames, else the accuracy from the first class on, with
; its label under the curtain; the ghost, while the falling piece has a plan (gone once the
; piece locks); and at the lock, its count and class (coach_grade).
.segment "RAM_coach_ghost"
.proc coach_ghost
    lda renderMode              ; (bne_not_playing's test: its branch would not reach done)
    cmp #RENDER_MODE_PLAY
    beq playing
    rts
playing:
    lda completedLines          ; (0 but between a lock's row check and its score: its lines)
    beq lines_known
    sta grade_lines
lines_known:
    ldx class_timer
    beq accuracy
    dex
    stx class_timer
    lda class_shown             ; the class's letters, CLASS_LETTERS a class
    .assert CLASS_LETTERS = 4, error, "coach_ghost finds a class's letters by two shifts"
    asl
    asl
    tax
    lda #CLASS_X
    jsr stage_label
    bcs ghost                   ; (always: C = 1 after)
accuracy:
    ldx grade_shown
    beq ghost                   ; nothing classed yet
    lda playState
    cmp #PLAY_STATE_CURTAIN
    bne digits
    ldx #LOCK_CLASSES * CLASS_LETTERS ; under the curtain: the accuracy's label before it
    lda #ACCURACY_X
    jsr stage_label
    ldx grade_shown
digits:
    dex
    txa                         ; the accuracy, 0-100: its digits from the ones on, right to left
    ldy #GRADE_ONES_X           ; each digit's sprite in the OAM slot whose offset is its x
digit:
    ldx #0                      ; the digits left of this one, as a number
tens:
    cmp #10
    bcc staged
    sbc #10
    inx
    bne tens                    ; (always)
staged:                         ; (C = 0)
    sta oamStaging+1,y          ; (tiles $00-$09 are the digits)
    lda #GRADE_Y
    sta oamStaging,y
    lda #GRADE_ATTRIBUTES
    sta oamStaging+2,y
    tya
    sta oamStaging+3,y
    sbc #8-1                    ; the next digit's, a column to the left
    tay
    txa
    bne digit
ghost:
    lda plan_ok
    cmp #PLAN_OK
    bne done
    lda plan_id
    cmp spawnCount
    bne done
    lda playState
    cmp #PLAY_STATE_LOCK
    bne not_lock
    jmp coach_grade             ; the piece locks (for as many frames as the game takes to draw
not_lock:                       ; the field, then lockTetrimino writes it)
    cmp #PLAY_STATE_ACTIVE
    bne done
    .assert ORIENTATION_SIZE = 12, error, "coach_ghost multiplies by 12 (4 + 8)"
    lda ghost_o                 ; 0-18 (a plan in this state came while the piece fell): times 12
                                ; stays below 256, and C = 0 after each shift and the sum
    asl
    asl
    sta oamStaging+GHOST_OAM    ; (scratch: the first cell's Y, written below)
    asl
    adc oamStaging+GHOST_OAM
    tax                         ; the orientation's first byte in game_orientationTable
    ldy #GHOST_OAM
cell:                           ; (C = 0 from here on: no sum below carries, but for a cell above
    lda game_orientationTable,x ; the field, in a placement that tops out) the cell's row offset
    adc ghost_y
    asl
    asl
    asl
    adc #$2F                    ; the field's top row on screen, as the game stages the piece
    sta oamStaging,y
    lda #GHOST_TILE
    sta oamStaging+1,y
    lda #GHOST_ATTRIBUTES
    sta oamStaging+2,y
    lda game_orientationTable+2,x ; its column offset
    adc ghost_x
    asl
    asl
    asl
    adc #$60                    ; the field's left column on screen
    sta oamStaging+3,y
    inx
    inx
    inx
    iny
    iny
    iny
    iny
    bne cell                    ; (up to the page's end: four cells)
done:
    rts
.endproc

; A label: the CLASS_LETTERS letters from gen_class_tiles,x on as sprites from OAM slot
; CLASS_OAM on, the first at x = A, each a column to the right of the one before. C = 1 after.
.segment "RAM_stage_label"
.proc stage_label
    ldy #CLASS_OAM
letter:
    sta oamStaging+3,y
    lda gen_class_tiles,x
    sta oamStaging+1,y
    lda #GRADE_Y
    sta oamStaging,y
    lda #GRADE_ATTRIBUTES
    sta oamStaging+2,y
    lda oamStaging+3,y
    clc
    adc #8
    inx
    iny
    iny
    iny
    iny
    cpy #CLASS_OAM + 4 * CLASS_LETTERS
    bne letter
    rts
.endproc

; The lock of a piece whose ghost the person saw (coach_ghost, in the first frame of
; PLAY_STATE_LOCK, which lasts until the game has drawn the field): counted, and matched when the
; piece's column, row and orientation are the ghost's; GHOST_NONE in ghost_x then, so that the
; lock's later frames, and a plan that comes after it (set_ghost), grade nothing more. When the
; full search had decided this piece, the lock's class: best when matched, else the next
; piece's spawn search measures the miss (coach_class_miss). The lines it makes are counted
; from 0 (coach_ghost).
.segment "RAM_coach_grade"
.proc coach_grade
    bit ghost_x
    bmi done                    ; graded, or no ghost
    ldx #2
same:
    lda tetriminoX,x
    cmp ghost_x,x
    bne missed
    dex
    bpl same
    inc grade_matched
    bne matched
    inc grade_matched+1
matched:
    ldy #0
    .byte $2C                   ; (bit absolute: skips the next ldy, 2 bytes, and reads RAM)
missed:
    ldy #1
    lda #GHOST_NONE
    sta ghost_x
    lda #0
    sta grade_lines
    inc grade_total
    bne total_known
    inc grade_total+1
total_known:
    lda grade_ready
    beq done                    ; its decision came after the lock: counted, not classed
    lda grade_ready_id
    cmp plan_id
    bne done
    lda #0
    sta grade_ready             ; (once)
    tya
    bne pend
    tax                         ; (X = 0: best)
    jmp coach_class
pend:
    lda plan_id
    clc
    adc #1
    sta grade_pending_id
    lda #1
    sta grade_pending
done:
    rts
.endproc

; The class X for the last lock: counted, its points added, shown for CLASS_FRAMES frames, and
; the accuracy anew: floor(100 * points / tenths) as coach_grade's share was divided
; (ai::coach_share: 100 steps, each adding the points to a remainder kept below the tenths and
; taking the tenths out when it holds them), + 1 in grade_shown.
.segment "RAM_coach_class"
.proc coach_class
    stx class_shown
    lda #CLASS_FRAMES
    sta class_timer
    inc class_lo,x
    bne counted
    inc class_hi,x
counted:
    lda gen_grade_points,x
    clc
    adc grade_points
    sta grade_points
    bcc points_known
    inc grade_points+1
points_known:
    lda grade_tenths
    clc
    adc #10
    sta grade_tenths
    bcc tenths_known
    inc grade_tenths+1
tenths_known:
    lda #$80 - 100
    sta grade_steps
    lda #0
    sta grade_rem_lo
    sta grade_rem_hi
    lda #1
    sta grade_shown
step:
    lda grade_rem_lo
    clc
    adc grade_points
    sta grade_rem_lo
    lda grade_rem_hi
    adc grade_points+1
    sta grade_rem_hi
    lda grade_rem_lo
    cmp grade_tenths
    lda grade_rem_hi
    sbc grade_tenths+1
    bcc next                    ; below the tenths
    sta grade_rem_hi
    lda grade_rem_lo
    sbc grade_tenths            ; (C = 1)
    sta grade_rem_lo
    inc grade_shown
next:
    inc grade_steps
    bpl step
    rts
.endproc

; At the spawn search of the piece after a lock that missed the ghost (coach_spawn_search, after
; its first ply): the lock's miss, the person's total (the lines it made by the decision's lines
; table, and the best first-ply cost of this piece on the board the game shows: the top-out cost
; when nothing is reachable) less the decision's best total with this piece's type as the reply,
; 0 when below; its class, the first whose most miss (gen_grade_miss) it does not pass.
.segment "RAM_coach_class_miss"
.proc coach_class_miss
    lda #$FF
    sta grade_rem_lo
    sta grade_rem_hi
    lda cand_count
    beq totalled
    lda grade_lines
    clc
    adc grade_lines_off
    tax
    lda gen_lines_lo,x
    clc
    adc cand_cost_lo
    sta grade_rem_lo
    lda gen_lines_hi,x
    adc cand_cost_hi
    sta grade_rem_hi
    bcc totalled
    lda #$FF                    ; (saturating, as the search's sums)
    sta grade_rem_lo
    sta grade_rem_hi
totalled:
    ldx s_type
    lda grade_rem_lo
    sec
    sbc grade_best_lo,x
    sta grade_rem_lo
    lda grade_rem_hi
    sbc grade_best_hi,x
    sta grade_rem_hi
    bcs classed
    lda #0
    sta grade_rem_lo
    sta grade_rem_hi
classed:
    ldx #0
find:
    lda gen_grade_miss_lo,x
    cmp grade_rem_lo
    lda gen_grade_miss_hi,x
    sbc grade_rem_hi
    bcs found                   ; the class's most miss >= the miss
    inx
    cpx #LOCK_CLASSES - 1
    bne find
found:
    jmp coach_class
.endproc

; ai_precompute, after the first ply: in a coach game at the spawn (not the search ahead, which
; is for the preview piece), the best placement so far is published (the first ghost), and the
; second ply is for the preview's type alone, when it is shown (the decision needs no other).
.segment "RAM_coach_spawn_search"
.proc coach_spawn_search
    .assert AI_MODE_COACH = 1, error, "coach_spawn_search tells the coach by dex"
    ldx ai_mode
    dex
    bne done
    lda in_search
    bne done
    lda grade_pending           ; the lock before this piece missed the ghost: its class
    beq first_ghost
    stx grade_pending           ; (X = 0: once)
    lda cur_id
    cmp grade_pending_id
    bne first_ghost
    jsr coach_class_miss
first_ghost:
    inc ghost_early
    ldx #0
    jsr publish                 ; the best of the first ply
    dec ghost_early
    lda displayNextPiece
    bne done                    ; (hidden: the decision is candidate 0 whatever the second ply)
    jsr preview_type
    tax
set_ply2_type:                  ; (late_spawn's finish too) the second ply for the type X alone
    stx ply2_first
    inx
    stx ply2_end
done:
    rts
.endproc
ply2_for_type = coach_spawn_search::set_ply2_type
