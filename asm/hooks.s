; Hooks that run in every mode: the vertical-blank wait and the controller poll go to the AI,
; and ai_mode returns to AI_MODE_HUMAN on the title screen and when a game ends.
.include "hooks.inc"

; updateAudioWaitForNmiAndResetOamStaging, the main loop's wait for the NMI:
; was   nop / @loop: lda verticalBlankingInterval / beq @loop   (5 bytes)
hook_begin IDLE
    jmp ai_idle             ; which ends the wait routine itself (its tail, then rts) once the
    nop                     ; NMI has set verticalBlankingInterval: these bytes never run
    nop
hook_end IDLE

; pollControllerButtons, called by the NMI: was the demo's playback of recorded buttons for
; gameMode 5, jsr pollController otherwise. ai_poll does both jobs now; the rest of the
; routine is free space (FREED_9D54).
hook_begin POLL
    jmp ai_poll
hook_end POLL

; The title screen's first lines: lda #0 / sta renderMode / sta $D0 / sta displayNextPiece.
; $D0 was the demo's recording switch, read only by the old poll routine, and stays 0 from
; power-on either way.
hook_begin TITLE_ENTER
    jsr title_enter         ; A = 0
    nop
hook_end TITLE_ENTER
; The sprite loader, its pointer rewritten by a lag NMI, can read these bytes as sprite data (from
; $81D9 on): no $FF (a record's end), as in the original's two stores, so the loop runs as long.
.assert <title_enter <> $FF && >title_enter <> $FF, lderror, "the TITLE_ENTER hook's bytes must hold no $FF"

; gameModeState_handleGameOver, one player: was jsr handleHighScoreIfNecessary.
hook_begin GAME_OVER
    jsr game_over
hook_end GAME_OVER

; The AI's RAM that the original holds at 0 (its power-on clear, and never written after): the
; memory areas of asm/nestris.cfg.
.globalzp __AI_ZP07_START__, __AI_ZP_START__, __AI_ZP35_START__
.global __AI_ZP07_SIZE__, __AI_ZP_SIZE__, __AI_ZP35_SIZE__, __PRG_RAM_CLEARED_START__, __PRG_RAM_CLEARED_SIZE__

.segment "RAM_hooks"
; The title screen starts (after the legal screen, the demo, a reset): the AI is off, and the
; demo's pieces are taken off spawnCount again (demo_pick counted them in demoIndex; the
; original demo never counted its pieces). Outside a demo demoIndex is 0: the game zeroes it when
; a game starts and only demo_pick counts it.
; The cycles it adds to the original's two stores (6) are a multiple of the wait's spin (6), as
; level_start's, so that the title's wait ends where the original's does.
.proc title_enter
    sta renderMode
    sta ai_mode
    lda spawnCount
    sec
    sbc demoIndex
    sta spawnCount
    lda #0
    sta demoIndex
    jsr clear_ai_ram
    rts                     ; A = 0, as the game expects
.endproc

; A game is over (curtain down and Start pressed, or an ending watched). A person's game (the
; coach's too) goes on to the high-score check as before; an AI game ends here (its score does not enter the table, which
; is for people), and the AI lets go of the controller before the menu comes back.
.proc game_over
    .assert AI_MODE_COACH = 1, error, "game_over tells the coach by dex"
    ldx ai_mode             ; (X: the game sets it again after the high-score check)
    beq person
    dex
    bne ai_game
    jsr ai_game             ; a coach game: a person's, with the AI's RAM cleared
person:
    jmp game_handleHighScoreIfNecessary
ai_game:
    .assert AI_MODE_HUMAN = 0, error, "clear_ai_ram wants A = 0"
    lda #AI_MODE_HUMAN      ; (clear_ai_ram clears ai_mode too: zero page, AI_ZP)
.endproc
; fall through
; The AI's zero page goes back to 0, as the original holds it (its power-on clear, and never a
; write after), before a person plays: after the demo (title_enter) and after an AI game
; (game_over). A lag NMI in the sprite loader makes the game read RAM as sprite data
; (asm/nestris.cfg), so human play at the high levels reads it too. PRG_RAM_CLEARED too: the
; AI's state that every game begins from 0 (the game never reads PRG-RAM). A = 0 (kept).
.proc clear_ai_ram
    ldx #<__PRG_RAM_CLEARED_SIZE__
ram6:
    sta __PRG_RAM_CLEARED_START__-1,x
    dex
    bne ram6
    .assert >ram6 = >*, lderror, "clear_ai_ram's loops must not cross a page (title_enter's cycles)"
    ldx #<__AI_ZP07_SIZE__
zp07:
    sta z:__AI_ZP07_START__-1,x
    dex
    bne zp07
    ldx #<__AI_ZP_SIZE__
zp:
    sta z:__AI_ZP_START__-1,x
    dex
    bne zp
    ldx #<__AI_ZP35_SIZE__
zp35:
    sta z:__AI_ZP35_START__-1,x
    dex
    bne zp35
    .assert >zp07 = >*, lderror, "clear_ai_ram's loops must not cross a page (title_enter's cycles)"
    rts
.endproc
; title_enter's added cycles: the hook's jsr and nop, its body with jsr clear_ai_ram (42, less
; the original's two stores: 36 added), clear_ai_ram's rts (6) and its loops, each 1 + 9 a byte
; (zero page) or 1 + 10 (absolute).
.assert (36 + 6 + 1 + 10 * __PRG_RAM_CLEARED_SIZE__ + 3 + 9 * (__AI_ZP07_SIZE__ + __AI_ZP_SIZE__ + __AI_ZP35_SIZE__)) .mod 6 = 0, lderror, "title_enter's added cycles must be a multiple of 6"
.assert __PRG_RAM_CLEARED_SIZE__ <= 256 && __AI_ZP_SIZE__ + __AI_ZP07_SIZE__ + __AI_ZP35_SIZE__ < 256, lderror, "clear_ai_ram's loops count in X"
