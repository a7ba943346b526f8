; The attract-mode demo becomes the AI playing live: random pieces from the game's own rule, a
; lively start level, and the same end as the original demo (or the AI's top-out).
.include "hooks.inc"

; chooseNextTetrimino, demo branch (gameMode 5; was the read of the demo piece table): the
; demo's level raised to DEMO_LEVEL, and the game's own random pick, on a copy of the RNG seed.
; The first pick comes in the game's init (initGameState), after the start level is copied into
; player1_levelNumber and before the first NMI draws the level (RENDER_LEVEL, with the level's
; palette): so the demo shows LEVEL 19 in level 19's colours from its first frame, as an AI game
; at 19 does. (The later picks come in play, whose level only goes up; savePlayer1State writes
; player1_levelNumber over again after each.) The original demo took its pieces from a
; table and never touched the seed or the piece counter: the seed is saved and put back (it still
; steps every frame in the NMI, so the pieces are as random as the game's), and the pieces the
; pick counts in spawnCount (the AI tells pieces apart by it) are counted in demoIndex too, which
; the title screen takes off spawnCount again (title_enter).
hook_begin DEMO_PICK
    jmp demo_pick
hook_end DEMO_PICK

.segment "RAM_demo_pick"
.proc demo_pick
    lda #AI_MODE_DEMO           ; the demo's pieces are picked from its start on: the AI plays it
    sta ai_mode
    lda player1_levelNumber     ; the game started the demo at level 0
    cmp #DEMO_LEVEL
    bcs level_ok
    lda #DEMO_LEVEL
    sta player1_levelNumber
level_ok:
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

; Each NMI of the demo (ai_poll, the AI's path): ends the demo the original's way, at its end
; frame or once the curtain is down after a top-out (so it never reaches the game over, the
; high-score table or an ending): the main loop's own test ends it when demoButtonsAddr+1 reaches DEMO_BUTTONS_END, as the original's playback made it do. (The
; main loop is left as it was: the sprite loader can read its bytes through a pointer a lag NMI
; rewrote, asm/nestris.cfg.)
.segment "RAM_demo_tick"
.proc demo_tick
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
    lda #DEMO_BUTTONS_END
    sta demoButtonsAddr+1
done:
    rts
.endproc
