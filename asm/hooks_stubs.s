; TEMPORARY stand-ins for the AI's entry points (asm/ai_*.s provides them soon; delete this file
; then). ai_idle: the original spin loop. ai_poll: the original poll for non-demo modes, and the
; original demo's Start-to-title for the demo (the AI does not play yet).
.include "hooks.inc"

.segment "AI_ZEROPAGE"
ai_mode: .res 1

.segment "HOOKS"
.proc ai_idle
wait:
    lda verticalBlankingInterval
    beq wait
    rts
.endproc

.proc ai_poll
    jsr game_pollController
    lda ai_mode
    cmp #AI_MODE_DEMO
    bne done
    lda newlyPressedButtons_player1
    cmp #BUTTON_START
    bne done
    lda #$DD                    ; the original demo's Start: back to the title screen
    sta demoButtonsAddr+1
    lda #0
    sta frameCounter+1
    lda #GAME_MODE_TITLE
    sta gameMode
done:
    rts
.endproc
