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

; gameModeState_handleGameOver, one player: was jsr handleHighScoreIfNecessary.
hook_begin GAME_OVER
    jsr game_over
hook_end GAME_OVER

.segment "HOOKS"
; The title screen starts (after the legal screen, the demo, a reset): the AI is off, and the
; demo's pieces are taken off spawnCount again (demo_pick counted them in demoIndex; the
; original demo never counted its pieces). Outside a demo demoIndex is 0: the game zeroes it when
; a game starts and only demo_pick counts it.
.proc title_enter
    sta renderMode
    sta ai_mode
    lda spawnCount
    sec
    sbc demoIndex
    sta spawnCount
    lda #0
    sta demoIndex
    rts                     ; A = 0, as the game expects
.endproc

; A game is over (curtain down and Start pressed, or an ending watched). A human game goes on to
; the high-score check as before; an AI game ends here (its score does not enter the table, which
; is for people), and the AI lets go of the controller before the menu comes back.
.proc game_over
    lda ai_mode
    bne ai_game
    jmp game_handleHighScoreIfNecessary
ai_game:
    lda #AI_MODE_HUMAN
    sta ai_mode
    rts
.endproc
