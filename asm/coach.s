; The coach: a person's game (started with B held, hooks_menu.s) in which the cartridge shows,
; as a ghost, where the AI would place the falling piece. The game is the original's to the byte:
; the AI's task runs in the idle time as in its own games (ai_idle), but nobody takes its plan's
; buttons (ai_mode AI_MODE_COACH: ai_poll's human path); each plan it publishes (publish) is
; also kept as the ghost's placement (set_ghost), and ai_idle draws it on the sprites nothing
; else uses (coach_ghost). At the spawn the search knows the preview (coach_spawn_search): the
; best placement of the first ply is drawn at once, and the second ply needs the preview's type
; alone. Each lock of a piece that had a ghost is graded (coach_grade): the share of those where
; the ghost was, in per cent, shown in the statistics box. The coach writes no byte of the
; game's RAM: only its own and the OAM staging page.
.include "ai.inc"
.include "hooks.inc"


.segment "AI_BSS_PLAN"
; The ghost: the placement the plan just published is for (the order of the game's tetriminoX,
; tetriminoY and currentPiece, which the grade compares it with in one loop).
ghost_x:     .res 1             ; its column
ghost_y:     .res 1             ; its landing row
ghost_o:     .res 1             ; its orientation (0-18)
; The grade: the locks the coach graded (those of a piece with a plan, the ghost at the lock) and
; the ones that locked where the ghost was (16 bits: below COACH_OFF_LEVEL a game has far fewer
; than 32 768 pieces, which the share's sums need); grade_shown: the share in per cent, + 1 (0:
; nothing graded yet). clear_ai_ram zeroes them before every game: the end of any game clears them.
grade_total:   .res 2
grade_matched: .res 2
grade_shown:   .res 1
.assert ghost_y = ghost_x + 1 && ghost_o = ghost_y + 1, error, "coach_grade reads the ghost as one run"
.assert tetriminoY = tetriminoX + 1 && currentPiece = tetriminoY + 1, error, "coach_grade reads the lock as one run"

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
    rts
.endproc

; ai_idle, in a coach game, at the start of the frame's idle time, while the game is on screen
; (not paused): the grade from the first graded lock on; the ghost, while the
; falling piece has a plan (gone once the piece locks); and at the lock, the grade of it.
.segment "RAM_coach_ghost"
.proc coach_ghost
    lda renderMode              ; (bne_not_playing's test: its branch would not reach done)
    cmp #RENDER_MODE_PLAY
    beq playing
    rts
playing:
    ldx grade_shown
    beq ghost                   ; nothing graded yet
    dex
    txa                         ; the share, 0-100: its digits from the ones on, right to left
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
    beq coach_grade             ; the piece locks (for as many frames as the game takes to draw
    cmp #PLAY_STATE_ACTIVE      ; the field, then lockTetrimino writes it)
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

; The lock of a piece whose ghost the person saw (coach_ghost, in the first frame of
; PLAY_STATE_LOCK, which lasts until the game has drawn the field): counted, and matched when the
; piece's column, row and orientation are the ghost's; then the share anew, floor(100 * matched /
; total), by long division: 100 times, the remainder (below the total) takes the matched count
; and gives up the total when it holds it, each time a per cent. The count of those steps ends
; at GHOST_NONE in ghost_x: the lock's later frames, and a plan that comes after it
; (set_ghost), grade nothing more.
; (In coach_ghost's segment: its branch reaches here.)
.proc coach_grade
steps = ghost_x                 ; (its column is read above; then it counts to GHOST_NONE)
    bit ghost_x
    bmi done                    ; graded, or no ghost
    ldx #2
same:
    lda tetriminoX,x
    cmp ghost_x,x
    bne counted
    dex
    bpl same
    inc grade_matched
    bne counted
    inc grade_matched+1
counted:
    inc grade_total
    bne share
    inc grade_total+1
share:
    .assert GHOST_NONE = $80, error, "coach_grade's steps end at bit 7"
    lda #GHOST_NONE - 100
    sta steps
    ldx #0                      ; the remainder: X low, Y high
    ldy #1
    sty grade_shown             ; (the share + 1)
    dey
step:
    txa
    clc
    adc grade_matched
    tax
    tya
    adc grade_matched+1
    tay
    cpx grade_total
    sbc grade_total+1           ; C = 1: the remainder holds the total (both below 32 768)
    bcc next
    tay
    txa
    sbc grade_total             ; (C = 1)
    tax
    inc grade_shown
next:
    inc steps
    bpl step
done:
    rts
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
    jsr publish                 ; (X = 0) the best of the first ply
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
