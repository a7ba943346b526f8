; The attract-mode demo becomes the AI playing live: random pieces from the game's own rule, a
; lively start level, and the same end as the original demo (or the AI's top-out).
.include "hooks.inc"

; chooseNextTetrimino, demo branch (gameMode 5; was the read of the demo piece table): the
; game's own random pick, on a copy of the RNG seed. The original demo took its pieces from a
; table and never touched the seed or the piece counter: the seed is saved and put back (it still
; steps every frame in the NMI, so the pieces are as random as the game's), and the pieces the
; pick counts in spawnCount (the AI tells pieces apart by it) are counted in demoIndex too, which
; the title screen takes off spawnCount again (title_enter).
hook_begin DEMO_PICK
    jmp demo_pick
hook_end DEMO_PICK

.segment "HOOKS"
.proc demo_pick
    lda rngSeed
    pha
    lda rngSeed+1
    pha
    jsr game_pickRandomTetrimino        ; A = spawnID = the orientation to spawn; spawnCount + 1
    inc demoIndex
    pla
    sta rngSeed+1
    pla
    sta rngSeed
    lda spawnID
    rts
.endproc

; The main loop in demo mode: was lda demoButtonsAddr+1 / cmp #>demoTetriminoTypeTable (Z=1
; ends the demo: the game's code that follows goes back to the title screen).
hook_begin DEMO_END
    jsr demo_tick
    nop
hook_end DEMO_END

.segment "HOOKS"
; After every step of the play loop in the demo (main loop, gameMode 5). Keeps the AI on and the
; level at DEMO_LEVEL or above; returns Z=1, AI off, when the demo is over: at the original
; demo's end frame, or once the curtain is down after a top-out (so it never reaches the game
; over, the high-score table or an ending).
.proc demo_tick
    lda #AI_MODE_DEMO
    sta ai_mode
    lda player1_levelNumber     ; the game started the demo at level 0
    cmp #DEMO_LEVEL
    bcs level_ok
    lda #DEMO_LEVEL
    sta player1_levelNumber
level_ok:
    lda player1_playState
    cmp #PLAY_STATE_CURTAIN
    bne clock
    lda player1_curtainRow
    cmp #CURTAIN_DOWN
    beq over
clock:
    lda frameCounter
    cmp #<DEMO_END_FRAME
    bne done
    lda frameCounter+1
    cmp #>DEMO_END_FRAME
    bne done
over:
    lda #AI_MODE_HUMAN          ; Z=1
    sta ai_mode
done:
    rts
.endproc
