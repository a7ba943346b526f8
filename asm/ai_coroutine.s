; The coroutine that runs the AI's task (ai_task.s) in the game's idle time, the wait for the
; vertical blank, and gives the CPU back to the game as soon as the NMI has come (AI_DESIGN.md).
;
; Register contract: ai_idle is JMP'd to by the hook at the game's vertical-blank wait and ends
; the wait as its routine does once the NMI has set verticalBlankingInterval, returning to the
; routine's caller (A, X, Y clobbered, as the routine did).
; ai_yield, called by the task after every placement the search evaluates, returns at once while
; the frame has time left; otherwise it copies the task's stack frames (between its stack pointer
; and the one resume found) into co_buf and returns to ai_idle. resume, from ai_idle in the next
; frame's idle time, copies them back below the current stack pointer and returns into the task,
; or restarts it (reset_task, late_spawn, finish_late) when the game has moved on.
; next_frame yields until the next frame's idle time and says whether a piece is under control.
.include "ai.inc"
.include "hooks.inc"

CO_BUF_SIZE = 12

.segment "AI_ZEROPAGE": zeropage
ai_mode:    .res 1      ; AI_MODE_HUMAN, _DEMO or _GAME (set by the hooks), or _POLL_PAUSED / _POLL_LAG (hooks.inc)

; 0 whenever the game is not in a game or the demo (every wait there stores 0): so every game the
; AI plays begins with a fresh task and driver (reset_task), and the AI needs no sign in RAM that
; a game began.
.segment "AI_BSS"
last_mode:  .res 1      ; ai_mode when ai_idle last looked
co_sp:      .res 1      ; the stack pointer resume found
co_len:     .res 1      ; bytes of the task's stack in co_buf
co_buf:     .res CO_BUF_SIZE
idle_count: .res 1      ; idle times begun (resume counts them)

; JMP'd from the game's wait for the vertical blank (hooks.s, IDLE): ends the wait as the game
; does once the NMI has set verticalBlankingInterval (the rest of the game's routine is copied
; here, so that no jmp back adds to the frame). While the AI plays, its task runs meanwhile.
; While a human plays it is the original's wait to the cycle: this entry takes 14 cycles from the
; wait's first instruction, the original's nop (2) and two whole turns of the spin (6 each), so
; the NMI finds the same spin at the same point and it ends as soon; with ai_poll's human path
; (the original's 19 cycles, in every NMI, lag NMIs and the game's other wait's too), a frame's
; work takes the original's cycles, and human play lags and crashes where the original does.
.segment "PACK_ai_idle"
.proc ai_idle
    lda ai_mode
    bne ai_plays
    sta last_mode           ; (A = AI_MODE_HUMAN)
    nop
spin:                       ; (the AI's too, when it leaves a frame to the game)
    lda verticalBlankingInterval
    beq spin
    .assert >spin = >*, lderror, "ai_idle's spin must not cross a page (its branch: 3 cycles)"
done:                       ; updateAudioWaitForNmiAndResetOamStaging after its spin (its cycles)
    ldx #>oamStaging
    ldy #>oamStaging
    lda #$FF
    jsr game_memset_page
    rts
ai_plays:
    cmp #AI_MODE_UNPACK
    beq unpacking
    jmp ai_playing          ; the AI plays: its part of the wait, in PRG-RAM
unpacking:                  ; the legal screen, the AI's code not yet in PRG-RAM: unpack_step
.endproc                    ; (unpack.s, linked right after this in the same segment)
ai_idle_spin := ai_idle::spin
ai_idle_done := ai_idle::done
ai_idle_unpacking := ai_idle::unpacking

; ai_idle's part while the AI plays (or the coach thinks): from PRG-RAM, since none of it runs
; before the code is unpacked.
.segment "RAM_ai_playing"
.proc ai_playing
    bit ai_mode
    bvc playing             ; (V: AI_MODE_POLL_PAUSED / _LAG) the scoring frame is over: the AI's polls again
    lda #AI_MODE_GAME
    sta ai_mode
playing:
    jsr playing_mode
    tax
    lda last_mode           ; the AI just switched on (a game or the demo began): a fresh start
    bne wait
    txa
    beq wait
    jsr reset_task
wait:
    stx last_mode
    lda verticalBlankingInterval
    bne done
    txa
    beq wait                ; nobody to think for: the original spin
    ; A coach game: the ghost first (the frame's sprites are staged by now, and the NMI shows
    ; them), then the task as in the AI's games; from COACH_OFF_LEVEL the coach goes.
    .assert AI_MODE_COACH = 1, error, "ai_idle tells the coach by dex"
    dex                     ; (X is not read again before playing sets it)
    bne scoring_frame
    .assert COACH_OFF_LEVEL = $80, error, "the coach's end from the level's bit 7"
    bit levelNumber
    bmi coach_off
    jsr coach_ghost
scoring_frame:
    ; The next frame ends a line clear's animation and scores it, which takes the game up to
    ; 22 000 cycles at level 150 (more with each level): a step of the task carried into it would
    ; make it lag. That frame's NMI steps the animation (rowY 4 -> 5) when the frame counter is
    ; a multiple of 4. A lock without a line scores in the frame after UPDATE_LINES is set.
    ; From level 128 that frame runs as the original's: no step of the task, and the game's own
    ; poll until the next wait (AI_MODE_POLL_PAUSED, then _LAG). The spin ends within 5 cycles of
    ; where the original's would (its phase: the AI's frames before took other cycles); the
    ; frame's NMI takes 5 cycles less than the original's and this wait's end 8 less, so the
    ; frame starts 8-18 cycles sooner and lags only where the original lags.
    lda playState
    cmp #PLAY_STATE_UPDATE_LINES
    beq unscored
    cmp #PLAY_STATE_LINE_CLEAR
    bne think
    lda rowY
    cmp #4
    bne think
    lda frameCounter
    and #3
    bne think
    .assert AI_POLL_PAUSE_LEVEL = $80, error, "ai_idle tests the level's bit 7"
    bit levelNumber
    bpl spin
pause:
    lda #AI_MODE_POLL_PAUSED
    sta ai_mode
    ldx #>oamStaging        ; (the wait's end, below, without the cycles of these)
    ldy #>oamStaging
pause_spin:
    lda verticalBlankingInterval
    beq pause_spin
    .assert >pause_spin = >*, lderror, "ai_idle's pause spin must not cross a page (its branch: 3 cycles)"
    lda #AI_MODE_POLL_LAG   ; until the next wait, an NMI lands in the frame's work
    sta ai_mode
    lda #$FF
    jmp game_memset_page    ; (its rts is the wait routine's)
unscored:
    bit levelNumber
    bmi pause
think:
    jsr resume
    jmp playing             ; (last_mode is not 0 here: no fresh start)
coach_off:                  ; from COACH_OFF_LEVEL a coach game is a person's game alone, with
    lda #AI_MODE_HUMAN      ; the AI's RAM as the original holds it (ai_mode too)
    jsr clear_ai_ram
spin:
    jmp ai_idle_spin        ; the wait's spin, in ROM
done:                       ; the wait's end, as ai_idle's (a copy: no jump before it, the same cycles)
    ldx #>oamStaging
    ldy #>oamStaging
    lda #$FF
    jsr game_memset_page
    rts
.endproc

; A = ai_mode while the game is in a game or the demo, else 0 (AI_MODE_HUMAN): after a reset
; in an AI game, ai_mode stays until the title screen clears it.
.segment "RAM_playing_mode"
.proc playing_mode
    lda gameMode
    cmp #GAME_MODE_PLAY
    lda #AI_MODE_HUMAN
    bcc done
    lda ai_mode
done:
    rts
.endproc

; The task starts over at ai_task_main; the input driver forgets its plan. Keeps X.
.segment "RAM_reset_task"
.proc reset_task
    lda #0
    sta plan_ok
    sta plan_at
    sta task_late
    lda #<(ai_task_main-1)
    ldy #>(ai_task_main-1)
.endproc
; fall through
; The task starts over at the address A (low byte), Y (high byte) + 1: the next resume returns
; there, its stack frames dropped, its search abandoned. Keeps X.
.proc restart_task
    sta co_buf
    sty co_buf+1
    lda #2
    sta co_len
    lda #0
    sta in_search
    sta finishing
    rts
.endproc

; Back into the task where it yielded (once per frame: the frame's idle time begins). When the
; piece the task searches ahead for has spawned, the task starts over at late_spawn instead (its
; stack frames dropped: the search is abandoned).
.segment "RAM_resume"
.proc resume
    inc idle_count
    lda finishing           ; a frame has passed since late_spawn began to finish the search:
    beq searching           ; the piece's first input is made, the finish is of no use
    lda #<(finish_late-1)
    ldy #>(finish_late-1)
    bne restart             ; (always: the address is above $00FF)
searching:
    lda in_search
    beq go_on
    lda spawnCount
    cmp cur_id
    beq go_on
    lda #<(late_spawn-1)
    ldy #>(late_spawn-1)
    .assert IN_HATE = $80, error, "resume tells hate mode's choice by bit 7"
    bit in_search
    bpl restart
    lda #<(hate_late-1)
    ldy #>(hate_late-1)
restart:
    jsr restart_task
go_on:
    tsx
    stx co_sp
    ldy co_len
copy:                       ; the task's frames pushed back, the last byte first (the NMI pushes
    lda co_buf-1,y          ; below them)
    pha
    dey
    bne copy
    rts                     ; into the task
.endproc

; Called by the task between steps: returns at once while the frame has idle time left; once the
; NMI has come, the task's stack goes to co_buf and the CPU back to the game (ai_idle). Returns
; Z = 1 either way (A = 0, or resume's copy done: the sweep counts on it).
.segment "RAM_ai_yield"
.proc ai_yield
    lda verticalBlankingInterval
    bne switch
    rts
switch:
    tsx
    ldy #0
save:                       ; the task's bytes: from S + 1 up to co_sp (at least the return address)
    lda $0101,x
    sta co_buf,y
    inx
    iny
    cpx co_sp
    bne save
    sty co_len
    txs                     ; (X = co_sp)
    rts                     ; into ai_idle
.endproc

; Yields until the next frame's idle time (the game's main loop has run: the frame counter
; alone would tell of an NMI that came in the middle of this frame's step, before the game
; moved on), then C = 0 when a piece is under control (tetris.inc), C = 1 when not.
.segment "RAM_next_frame"
.proc next_frame
idle_seen  = z_t0           ; idle_count when it was called
    lda idle_count
    sta idle_seen
again:
    jsr ai_yield
    lda idle_count
    cmp idle_seen
    beq again
    bne_no_active_piece no
    bne_not_playing no
    cmp_current_piece
    rts                     ; C = 0 when a piece
no:
    sec
    rts
.endproc
