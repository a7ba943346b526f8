; Hooks that run in every mode: the vertical-blank wait and the controller poll go to the AI,
; and ai_mode returns to AI_MODE_HUMAN on the title screen and when a game ends.
.include "hooks.inc"

; updateAudioWaitForNmiAndResetOamStaging, the main loop's wait for the NMI:
; was   nop / @loop: lda verticalBlankingInterval / beq @loop   (5 bytes)
.segment "HOOK_AA36"
    jsr ai_idle             ; returns once the NMI has set verticalBlankingInterval
    nop
    nop

; pollControllerButtons, called by the NMI: was the demo's playback of recorded buttons for
; gameMode 5, jsr pollController otherwise. ai_poll does both jobs now; the rest of the
; routine is free space (FREED_9D54).
.segment "HOOK_9D51"
    jmp ai_poll

; The title screen's first lines: lda #0 / sta renderMode / sta $D0 / ... The byte $D0 was
; the demo's recording switch, read only by the old poll routine, and stays 0 from power-on
; either way; the same store now switches the AI off whenever the title screen starts (after
; the demo, after a reset, after the legal screen).
.segment "HOOK_8256"
    sta ai_mode             ; A = 0 = AI_MODE_HUMAN

; gameModeState_handleGameOver, one player: was jsr handleHighScoreIfNecessary.
.segment "HOOK_9CEE"
    jsr game_over

.segment "HOOKS"
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
