; The AI's input driver: replaces the game's controller poll (JMP'd from $9D51, in the NMI).
; With the AI off it is the game's own poll. With the AI on it reads the controller (Start still
; ends the demo, or pauses an AI game), and feeds the plan's buttons into the variables the
; original demo playback fed (newlyPressedButtons_player1 / heldButtons_player1), frame by frame,
; as ai_player.cpp (the reference) does: the game moves the piece by its own rules.
.include "ai.inc"
.include "hooks.inc"

.export ai_soft_drop_level

RESET_BUTTONS = BUTTON_A | BUTTON_B | BUTTON_SELECT | BUTTON_START

.segment "AI_BSS_PLAN"
drv_active: .res 1      ; 0: no piece; 1: on the piece drv_id; 2: on it, but its plan was not
                        ; there by its first input frame (it gets no input: it falls as it is)
drv_id:     .res 1
drv_frame:  .res 1      ; frames since the piece appeared, minus its first input frame
drv_held:   .res 1      ; the buttons the driver held last frame
drv_pad:    .res 1      ; the controller's buttons last frame
drv_slot:   .res 1      ; the plan slot the piece follows: plan_at at its first input frame (a
                        ; plan published later, for the same piece, no longer changes its inputs)
drv_flip:   .res 1      ; 1: the piece's lock is made with the other preview (its plan's plan_flip)

; A = the buttons of the plan this frame (0: paused; the crash rule's Select on a frame without
; other buttons: preview_select).
.segment "RAM_plan_buttons"
.proc plan_buttons
    bne_not_playing nothing ; paused: nothing, and the piece's frames stand still
    bne_no_active_piece gone
    cmp_current_piece
    .assert PIECE_NONE > PLAY_STATE_UPDATE_LINES, error, "gone tells the play states by A"
    bcs gone
    lda spawnCount
    ldx drv_active
    beq new_piece
    cmp drv_id
    beq counted
new_piece:
    sta drv_id
    ldx #1
    stx drv_active
    dex                     ; k = frame - first input frame + 1 (counted up below): the
    stx drv_flip            ; (no plan taken yet: the level's preview)
    lda autorepeatY         ; first frame of a piece is k = 1; in the hold of a game's first
    bpl first_input         ; piece, frame FIRST_PIECE_START_FRAME is
    ldx #$100+1-FIRST_PIECE_START_FRAME
first_input:
    stx drv_frame
counted:
    inc drv_frame           ; k
    beq idle                ; (k <= 0: before the first input frame)
    bmi idle
    lda drv_active
    lsr
    bcc idle                ; 2: no plan for this piece
    lda plan_ok
    cmp #PLAN_OK
    bne late
    lda plan_id
    cmp drv_id
    bne late
    lda drv_frame
    cmp #1
    bne planned
    ldy plan_at             ; the first input frame: the lock's preview goes with the plan the
    lda plan_flip,y         ; driver takes (planned)
    sta drv_flip
    bpl planned             ; (always: 0 or 1)
late:
    lda #2                  ; too late for this piece: it falls as it is
    sta drv_active
    bne idle                ; (always)
gone:                       ; (A: the play state, or PIECE_NONE in play state 1)
    ldx #0
    stx drv_active
    cmp #PLAY_STATE_UPDATE_LINES+1 ; once the lock's scoring frame is over (or before the piece
    bcs preview             ; appears) the preview is shown again
.if ::ROW5_LEVEL             ; (:: for a constant in a .proc)
    .assert PLAY_STATE_LINE_CLEAR = PLAY_STATE_CHECK_ROWS + 1, error, "two play states between a lock and its scoring frame"
    sbc #PLAY_STATE_CHECK_ROWS-1 ; (C = 0) the play state - PLAY_STATE_CHECK_ROWS
    cmp #2
    bcc between             ; between a lock and its scoring frame
.endif
nothing:
    lda #0
    rts
planned:
    ldy drv_slot
    lda drv_frame
    cmp #1
    bne latched
    ldy plan_at             ; the first input frame: the plan at hand is the piece's
    sty drv_slot
latched:
    cmp plan_down,y
    bcs down                ; k >= max(2n, 1): soft drop
    lsr
    bcc idle                ; even k: no shift, no rotation
    lda plan_shift_last,y
    cmp drv_frame           ; C = k <= the last shift frame
    lda #0
    bcc no_shift
    lda plan_shift,y
no_shift:
    tax
    lda plan_rot_last,y
    cmp drv_frame           ; C = k <= the last rotation frame
    txa
    bcc done
    ora plan_rot,y
done:
    rts
down:
    ; Down; from level 128 only at the crash rule's soft-drop levels (at one row a frame the soft
    ; drop moves nothing, and its points, added before the score loop, move the scoring frame's
    ; time: MODEL.md "Time"); elsewhere the frame is one without other buttons
    lda levelNumber
    jsr ai_soft_drop_level
    bcs idle
    lda #BUTTON_DOWN
    rts
idle:
    ; A frame of the piece without other buttons: Select when the game shows the preview where
    ; its level wants it hidden for the lock's scoring frame, or the reverse (the crash rule: the
    ; ranges gen_hidden_first, gen_hidden_count, the other one for a clear its plan flips; at
    ; BY_PIECE_LEVEL hidden for the orientations below HIDDEN_ORIENTATIONS); else nothing.
    .assert BY_PIECE_LEVEL >= AI_POLL_PAUSE_LEVEL, error, "the preview by piece from level 128"
    lda levelNumber
    cmp #BY_PIECE_LEVEL
    bne ranges
    lda currentPiece
    cmp #HIDDEN_ORIENTATIONS
    jmp preview             ; (C = 0: hidden)
ranges:
    ldx #HIDDEN_RANGES-1
range:
    lda levelNumber
    sec
    sbc gen_hidden_first,x
    cmp gen_hidden_count,x
    bcc by_lock             ; (C = 0: hidden)
    dex
    bpl range
    bcs by_lock             ; (always: C = 1 at the end, shown)
.if ::ROW5_LEVEL
between:
    ; Between a lock and its scoring frame, from ROW5_LEVEL: the preview by row 5's first block,
    ; when it has one (a lock the AI made when it had lost: the crash rule's row5_preview_hidden).
    .assert ROW5_LEVEL >= AI_POLL_PAUSE_LEVEL, error, "the row-5 preview from level 128"
    ldy levelNumber
    cpy #ROW5_LEVEL
    bcc nothing
    ldx #$100-COLUMNS       ; the scan's index runs from -COLUMNS to -1 (gen_row5_scan_first)
scan_row5:
    lda playfield+6*COLUMNS-$100,x ; row 5
    .assert EMPTY_TILE >= $80, error, "the row-5 scan tells a block by bit 7"
    bpl row5_block          ; (the blocks' tiles are below $80)
    inx
    bne scan_row5
    beq nothing             ; (always: row 5 empty)
row5_block:                 ; (C = 1: cpy) X = the block's column - COLUMNS
    txa
    sbc gen_row5_scan_first-ROW5_LEVEL,y
    cmp gen_row5_count-ROW5_LEVEL,y
.endif
preview:                    ; C = 1: shown wanted
    lda #0
    rol
preview_wanted:             ; A = 1: shown wanted
    eor displayNextPiece    ; (0: shown): 1 when the game shows it as wanted
    eor #1
    beq done
    lda #BUTTON_SELECT
    rts
by_lock:                    ; C = 1: shown wanted by the level; the other one for a clear whose
    lda #0                  ; class needs it (drv_flip)
    rol
    eor drv_flip
    bpl preview_wanted      ; (always: 0 or 1)
.endproc

; C = 0 when the AI soft-drops at the level in A: below 128 always, from it where the crash rule
; does (the ranges gen_soft_drop_first, gen_soft_drop_count); A and Y kept.
.segment "RAM_soft_drop_level"
.proc ai_soft_drop_level
    .assert AI_POLL_PAUSE_LEVEL = $80, error, "ai_eval_clear tells the levels from 128 by bit 7"
    cmp #AI_POLL_PAUSE_LEVEL
    bcc done
    ldx #SOFT_DROP_RANGES-1
range:
    pha
    sec
    sbc gen_soft_drop_first,x
    cmp gen_soft_drop_count,x
    pla
    bcc done
    dex
    bpl range
done:
    rts
.endproc

.segment "PACK_ai_poll"
; The modes by bit (hooks.inc): N clear and V clear: a human plays; V alone: the first NMI of a
; scoring frame the AI leaves to the game; N and V: a lag NMI in that frame; N alone: the AI plays.
.proc ai_poll
    bit ai_mode
    bmi ai_or_lag
    .assert >* = >ai_or_lag, lderror, "ai_poll's branches must not cross a page (their cycles)"
    bvs paused
    .assert >* = >paused, lderror, "ai_poll's branches must not cross a page (their cycles)"
    bit ai_mode             ; a human plays: the game's own poll (paused's jmp), in the original's
    bit ai_mode             ; cycles (19 here with the hook's jmp, as pollControllerButtons takes)
paused:                     ; the game's own poll, 5 cycles sooner than the original's (ai_idle:
    jmp game_pollController ; the scoring frame starts before the original's)
ai_or_lag:
    bvc ai_on
    ; A lag NMI (21 cycles, 2 more than the original's poll: the frame started 8 or more sooner).
    ; stageSpriteForCurrentPiece counts the piece's 4 minos in generalCounter2, which the poll
    ; uses as scratch (the buttons held, 0 when none is): an NMI in that loop sets it to 0, the
    ; loop then runs 256 times, longer than a frame, and the next NMI lands in it again. The
    ; original freezes there until a button is held; no one holds one in an AI game. An NMI in
    ; that loop with a count over 4 is in the runaway loop: it stops at the mino under way.
    ; The sprite loader keeps its pointer's high byte there too (a sprite's page in ROM, over 4):
    ; an NMI in its loop leaves the buttons as that page, 0 (none held) reads the zero page and
    ; the stack to a $FF, which frameCounter becomes within 256 frames: the picture stalls up to
    ; 4 seconds. The buttons A and B (SPRITE_LOADER_STOP_BUTTONS) make it read the game's bytes at
    ; $C0xx instead, which end it within 10 records.
    lda generalCounter2
    cmp #5
    bcs runaway
poll:
    jmp game_pollController
runaway:
    tsx                     ; the interrupted instruction: above the NMI's P, its A, X, Y (pushed
    lda $0108,x             ; by its handler) and the handler's return address
    cmp #>game_stageMinoLoop
    bne loader
    lda $0107,x
    cmp #<game_stageMinoLoop
    bcc poll
    cmp #<(game_stageMinoLoopLast + 1)
    bcs poll
    .assert >game_stageMinoLoop = >game_stageMinoLoopLast, error, "the mino loop is in one page"
    jsr game_pollController
    lda #1
    sta generalCounter2
    rts
loader:
    cmp #>game_spriteLoaderPointerSet
    bne poll
    lda $0107,x
    cmp #<game_spriteLoaderPointerSet
    bcc poll
    cmp #<(game_spriteLoaderLoopJmp + 1)
    bcs poll
    .assert >game_spriteLoaderPointerSet = >game_spriteLoaderLoopJmp, error, "the sprite loader's loop is in one page"
    jsr game_pollController
    .assert SPRITE_LOADER_STOP_BUTTONS = BUTTON_A | BUTTON_B, error, "the loader's stop is A and B held"
    lda #SPRITE_LOADER_STOP_BUTTONS
    sta generalCounter2
    rts
ai_on:
    jsr playing_mode
    bne in_game
    sta drv_active          ; (A = 0) not in a game: the game's own poll, and the driver forgets
    sta drv_held            ; its piece, so that every game begins with a clean driver
    beq poll                ; (always: Z from playing_mode)
in_game:
    lda drv_pad             ; the game finds new presses against the controller's last buttons,
    sta heldButtons_player1 ; not against the AI's
    jsr game_pollController
    lda heldButtons_player1
    sta drv_pad
    and #RESET_BUTTONS
    cmp #RESET_BUTTONS
    beq done                ; the reset combination works as always
    .assert (AI_MODE_DEMO & 1) = 1 && (AI_MODE_GAME & 1) = 0, error, "ai_poll tells the demo by bit 0"
    lda ai_mode
    lsr                     ; C = 1: the demo
    lda newlyPressedButtons_player1
    and #BUTTON_START
    beq drive
    bcc done                ; an AI game: the player's Start goes through (pause)
    jmp game_demoStartPressed ; the demo: the game's own way back to the title
done:
    rts
drive:
    bcc plan
    jsr demo_tick
plan:
    jsr plan_buttons
    tax
    eor drv_held            ; new presses: held now, not held last frame, as the game has them
    stx drv_held
    and drv_held
    sta newlyPressedButtons_player1
    stx heldButtons_player1
    rts
.endproc
